import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Module } from '@nestjs/common';
import { commonPasswords } from '@hunktube/shared/common-passwords';
import { RedisModule } from '../common/redis/redis.module';
import { loadConfig } from '../config/app-config';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { parseAdminCreateArgs } from './admin-create-args';
import { AuthModule } from './auth.module';
import { AuthService } from './auth.service';

/**
 * `npm run admin:create -- <email> <password>`: creates an admin, or promotes the account and sets its password.
 * A password that the password rule refuses stops it with the rule's message and a non-zero exit.
 */
async function main(): Promise<void> {
  const args = parseAdminCreateArgs(process.argv.slice(2), commonPasswords());
  if (!args.ok) {
    console.error(args.message);
    process.exit(2);
  }
  const { email, password } = args;
  const config = loadConfig();

  // RedisModule: the auth budgets (AuthModule) take the shared Redis connection, null without REDIS_URL.
  @Module({ imports: [ConfigModule.forRoot(config), DatabaseModule, RedisModule, AuthModule] })
  class AdminCliModule {}

  const app = await NestFactory.createApplicationContext(AdminCliModule, { logger: ['error', 'warn'] });
  try {
    const user = await app.get(AuthService).ensureAdmin(email, password);
    console.log(`Admin ready: ${user.email}`);
  } finally {
    await app.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
