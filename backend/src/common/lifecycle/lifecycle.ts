import { Global, Injectable, Module } from '@nestjs/common';

/**
 * Where this process is in its life, for readiness (`GET /api/health/ready`): draining begins on SIGTERM
 * (common/lifecycle/graceful-shutdown.ts), and from then on the process answers what is in flight and what still
 * arrives while a balancer notices, but says it is not ready.
 */
@Injectable()
export class Lifecycle {
  private drainingSince: number | null = null;

  get draining(): boolean {
    return this.drainingSince !== null;
  }

  beginDrain(): void {
    this.drainingSince ??= Date.now();
  }
}

@Global()
@Module({ providers: [Lifecycle], exports: [Lifecycle] })
export class LifecycleModule {}
