import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { dataSourceOptions, openDataSource } from './data-source';
import { DatabaseInUseError } from './embedded-lock';

/** Opens the database (PGlite or PostgreSQL) and brings its schema up to date before anything else starts. */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        ...dataSourceOptions(config),
        retryAttempts: 3,
        retryDelay: 2000,
        // Another process holding the embedded database will not let go within seconds: say so at once.
        toRetry: (error: Error) => !(error instanceof DatabaseInUseError),
      }),
      dataSourceFactory: async (options) => {
        if (!options) throw new Error('No database options');
        return openDataSource(options);
      },
    }),
  ],
})
export class DatabaseModule {}
