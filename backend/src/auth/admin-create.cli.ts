import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Module } from '@nestjs/common';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@hunktube/shared';
import { loadConfig } from '../config/app-config';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { AuthModule } from './auth.module';
import { AuthService } from './auth.service';

/** `npm run admin:create -- <email> <password>`: creates an admin, or promotes the account and sets its password. */
async function main(): Promise<void> {
  const [email, password] = process.argv.slice(2);
  if (!email || !/^[^\s@]+@[^\s@]+$/.test(email) || !password || password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    console.error(`Usage: npm run admin:create -- <email> <password>   (password: ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters)`);
    process.exit(2);
  }
  const config = loadConfig();

  @Module({ imports: [ConfigModule.forRoot(config), DatabaseModule, AuthModule] })
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
