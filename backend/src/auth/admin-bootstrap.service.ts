import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { AuthService } from './auth.service';

/** Creates or promotes the admin named by ADMIN_EMAIL / ADMIN_PASSWORD at start-up. */
@Injectable()
export class AdminBootstrapService implements OnApplicationBootstrap {
  constructor(
    private readonly auth: AuthService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.admin) await this.auth.ensureAdmin(this.config.admin.email, this.config.admin.password);
  }
}
