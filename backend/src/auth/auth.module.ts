import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { AdminBootstrapService } from './admin-bootstrap.service';
import { AuthBudgets } from './auth-budgets';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { jwtKey } from './jwt-key';
import { JWT_ALGORITHM, JwtStrategy } from './jwt.strategy';
import { User } from './user.entity';

@Module({
  imports: [
    TypeOrmModule.forFeature([User]),
    PassportModule,
    JwtModule.registerAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => {
        // A key object, not the string: jsonwebtoken would try to read the string as a PEM key each time (jwt-key.ts).
        const key = jwtKey(config.jwtSecret);
        return {
          privateKey: key,
          publicKey: key,
          signOptions: { algorithm: JWT_ALGORITHM, expiresIn: config.jwtTtlSeconds },
          verifyOptions: { algorithms: [JWT_ALGORITHM] },
        };
      },
    }),
  ],
  controllers: [AuthController],
  providers: [AuthService, AuthBudgets, JwtStrategy, AdminBootstrapService],
  exports: [AuthService],
})
export class AuthModule {}
