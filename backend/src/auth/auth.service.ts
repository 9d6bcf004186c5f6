import { ConflictException, Inject, Injectable, Logger, UnauthorizedException } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { InjectRepository } from '@nestjs/typeorm';
import { LRUCache } from 'lru-cache';
import { Repository } from 'typeorm';
import { readOrRecall } from '../common/errors/dependency-errors';
import { isUniqueViolation } from '../common/utils/database-errors';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { AuthUser } from '../common/decorators/auth.decorators';
import type { LoginDto, RegisterDto, SessionDto, UserDto } from './dto/auth.dto';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords';
import { User } from './user.entity';
import { toUserDto } from './user.mapper';

export const INVALID_LOGIN = 'Invalid email or password';

export interface JwtPayload {
  sub: string;
}

@Injectable()
export class AuthService {
  private readonly logger = new Logger(AuthService.name);
  /**
   * The members this process last identified, read only while the database is down, so that a member's views
   * and signals keep counting as theirs (their writes still answer 503). Forgotten on every change of the user.
   */
  private readonly lastKnown = new LRUCache<string, AuthUser>({ max: 10_000, ttl: 60 * 60_000 });

  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly jwt: JwtService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async register(dto: RegisterDto): Promise<SessionDto> {
    const passwordHash = await hashPassword(dto.password);
    let user: User;
    try {
      user = await this.users.save(
        this.users.create({ email: dto.email.toLowerCase(), passwordHash, displayName: dto.displayName, roleId: null }),
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictException('An account with this email already exists');
      throw error;
    }
    return this.session(user);
  }

  async login(dto: LoginDto): Promise<SessionDto> {
    const user = await this.users
      .createQueryBuilder('u')
      .addSelect('u.passwordHash')
      .where('lower(u.email) = lower(:email)', { email: dto.email })
      .getOne();
    const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), dto.password);
    if (!user || !ok) throw new UnauthorizedException(INVALID_LOGIN);
    return this.session(user);
  }

  /** Finishing the profile makes a new account a member. */
  async updateProfile(userId: string, displayName: string): Promise<UserDto> {
    this.lastKnown.delete(userId);
    await this.users
      .createQueryBuilder()
      .update(User)
      .set({ displayName, roleId: () => `COALESCE(role_id, 'member')` })
      .where('id = :id', { id: userId })
      .execute();
    const user = await this.users.findOneByOrFail({ id: userId });
    return toUserDto(user);
  }

  /** Pauses or resumes the member's watch history (nothing is recorded while paused). */
  async setHistoryPaused(userId: string, paused: boolean): Promise<void> {
    this.lastKnown.delete(userId);
    await this.users.update({ id: userId }, { historyPaused: paused });
  }

  /** The user behind a verified token, or null when the account is gone. */
  async findAuthUser(id: string): Promise<AuthUser | null> {
    return readOrRecall(
      async () => {
        const user = await this.users.findOneBy({ id });
        if (!user) {
          this.lastKnown.delete(id);
          return null;
        }
        const authUser = { id: user.id, email: user.email, displayName: user.displayName, roleId: user.roleId, historyPaused: user.historyPaused };
        this.lastKnown.set(id, authUser);
        return authUser;
      },
      () => this.lastKnown.get(id),
    );
  }

  /** Creates the admin, or promotes and re-keys an existing account; safe to run at every start. */
  async ensureAdmin(email: string, password: string): Promise<User> {
    const normalized = email.trim().toLowerCase();
    const passwordHash = await hashPassword(password);
    const existing = await this.users.createQueryBuilder('u').where('lower(u.email) = :email', { email: normalized }).getOne();
    if (existing) {
      this.lastKnown.delete(existing.id);
      await this.users.update({ id: existing.id }, { roleId: 'admin', passwordHash });
      return { ...existing, roleId: 'admin' };
    }
    const user = await this.users.save(
      this.users.create({ email: normalized, passwordHash, displayName: normalized.split('@')[0].slice(0, 40).padEnd(2, '_'), roleId: 'admin' }),
    );
    this.logger.log(`Created admin ${normalized}`);
    return user;
  }

  private session(user: User): SessionDto {
    const payload: JwtPayload = { sub: user.id };
    return { accessToken: this.jwt.sign(payload), user: toUserDto(user) };
  }

  get tokenTtlSeconds(): number {
    return this.config.jwtTtlSeconds;
  }
}
