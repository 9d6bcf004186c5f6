import type { Logger } from '@nestjs/common';
import { isDependencyDown } from '../errors/dependency-errors';

/**
 * Work that lives in Redis with the process as its stand-in: `run` does it on Redis, or, while Redis does not
 * answer (a dependency-down error; any other error is thrown), the process's way instead. The fall and the
 * return are logged once each, not on every call of an outage.
 */
export class RedisFallback {
  private down = false;

  constructor(
    private readonly logger: Logger,
    /** What happens meanwhile: `Redis does not answer; ${whileDown} (error)`. */
    private readonly whileDown: string,
    /** What happens again once it answers, if that is worth a line: `Redis answers again; ${onceBack}`. */
    private readonly onceBack?: string,
  ) {}

  /** Whether the last call to Redis failed. */
  get degraded(): boolean {
    return this.down;
  }

  async run<T>(onRedis: () => Promise<T>, inProcess: () => T | Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await onRedis();
    } catch (error) {
      if (!isDependencyDown(error)) throw error;
      if (!this.down) this.logger.warn(`Redis does not answer; ${this.whileDown} (${String(error)})`);
      this.down = true;
      return inProcess();
    }
    if (this.down && this.onceBack) this.logger.log(`Redis answers again; ${this.onceBack}`);
    this.down = false;
    return result;
  }
}
