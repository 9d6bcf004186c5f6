import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { type AppConfig, ConfigError } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { WeakPasswordError } from './auth-errors';
import { AuthService } from './auth.service';

/** Creates or promotes the admin named by ADMIN_EMAIL / ADMIN_PASSWORD at start-up. */
@Injectable()
export class AdminBootstrapService implements OnApplicationBootstrap {
  constructor(
    private readonly auth: AuthService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.admin) return;
    try {
      await this.auth.ensureAdmin(this.config.admin.email, this.config.admin.password);
    } catch (error) {
      // loadConfig has checked the password against ADMIN_EMAIL; an existing account's display name is only
      // known here. Either way the start stops with a message naming the setting.
      if (error instanceof WeakPasswordError) throw new ConfigError(`Invalid settings:\n  - ADMIN_PASSWORD: ${error.message}`);
      throw error;
    }
  }
}
