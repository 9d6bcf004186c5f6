import { Inject, Injectable, Logger } from '@nestjs/common';
import { type PasswordOwner, passwordProblem } from '@hunktube/shared';
import { commonPasswords } from '@hunktube/shared/common-passwords';
import { JwtService } from '@nestjs/jwt';
import { InjectRepository } from '@nestjs/typeorm';
import { LRUCache } from 'lru-cache';
import { randomUUID } from 'node:crypto';
import { Repository } from 'typeorm';
import { readOrRecall } from '../common/errors/dependency-errors';
import { ConflictError, ForbiddenError, InvalidInputError, UnauthenticatedError } from '../common/errors/domain-errors';
import { isUniqueViolation } from '../common/utils/database-errors';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { AuthUser } from '../common/decorators/auth.decorators';
import { AuthBudgets } from './auth-budgets';
import { AuthErrorCode, WeakPasswordError } from './auth-errors';
import type { LoginDto, RegisterDto, SessionDto, UserDto } from './dto/auth.dto';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords';
import { type RoleId, User } from './user.entity';
import { toUserDto } from './user.mapper';
import { iso } from '../common/utils/iso';
import { lastDays } from '../common/utils/last-days';

export const INVALID_LOGIN = 'Invalid email or password';
export const WRONG_PASSWORD = 'That is not your password';
export const ADMIN_ACCOUNT = 'An admin account cannot be deleted from its profile';

/** The account as its export holds it (docs/decisions.md › "Export and delete"). */
export interface AccountExport {
  id: string;
  email: string;
  display_name: string;
  role: RoleId | null;
  created_at: string;
  history_paused: boolean;
  sessions: { started_at: string; expires_at: string }[];
}

export interface JwtPayload {
  sub: string;
  /** The session the token belongs to: a row of `sessions` while the session lasts. */
  sid: string;
}

/** A token's payload as sessions issue it: a user, a session and an expiry (a token without `exp` is refused). */
export function isSessionPayload(payload: unknown): payload is JwtPayload & { exp: number } {
  const p = payload as Partial<JwtPayload> & { exp?: unknown } | null;
  return typeof p?.sub === 'string' && typeof p.sid === 'string' && typeof p.exp === 'number';
}

/**
 * Throws when the password rule refuses `password` for its owner: the length as the validation does (400), the
 * other rules as WeakPasswordError (400 WEAK_PASSWORD). Called before hashing, so a refused password writes nothing.
 * Sign-in never calls it: accounts made under an older rule keep their passwords.
 */
export function checkPasswordRule(password: string, owner: PasswordOwner): void {
  const problem = passwordProblem(password, owner, commonPasswords());
  if (problem) throw problem.rule === 'length' ? new InvalidInputError(problem.message) : new WeakPasswordError(problem.message);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Injectable()
export class AuthService {
  private readonly logger = new Logger(AuthService.name);
  /**
   * The members this process last identified, read only while the database is down, so that a member's views
   * and signals keep counting as theirs (their writes still answer 503). Forgotten on every change of the user.
   */
  private readonly lastKnown = new LRUCache<string, AuthUser>({ max: 10_000, ttl: 60 * 60_000 });
  /** The sessions this process last found valid, by id (to their user's id), read only while the database is down. */
  private readonly lastKnownSessions = new LRUCache<string, string>({ max: 20_000, ttl: 60 * 60_000 });

  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly jwt: JwtService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly budgets: AuthBudgets,
  ) {}

  /** `network` (the client's, see `clientNetwork`) counts registrations of taken addresses against its budget. */
  async register(dto: RegisterDto, network?: string): Promise<SessionDto> {
    if (network !== undefined) await this.budgets.checkRegistration(network);
    checkPasswordRule(dto.password, { email: dto.email, displayName: dto.displayName });
    const passwordHash = await hashPassword(dto.password);
    let user: User;
    try {
      user = await this.users.save(
        this.users.create({ email: dto.email.toLowerCase(), passwordHash, displayName: dto.displayName, roleId: null }),
      );
    } catch (error) {
      if (isUniqueViolation(error)) {
        if (network !== undefined) await this.budgets.emailTaken(network);
        throw new ConflictError('An account with this email already exists');
      }
      throw error;
    }
    return this.session(user);
  }

  async login(dto: LoginDto): Promise<SessionDto> {
    await this.budgets.reserveAttempt(dto.email);
    const user = await this.users
      .createQueryBuilder('u')
      .addSelect('u.passwordHash')
      .where('lower(u.email) = lower(:email)', { email: dto.email })
      .getOne();
    const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), dto.password);
    if (!user || !ok) throw new UnauthenticatedError(INVALID_LOGIN);
    await this.budgets.signedIn(dto.email);
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

  /**
   * The user behind a verified token, or null when its session has ended (logged out, reset by an admin,
   * expired) or the account is gone: one query over the session and its user.
   */
  async findSessionUser(userId: string, sessionId: string): Promise<AuthUser | null> {
    if (!UUID.test(userId) || !UUID.test(sessionId)) return null;
    return readOrRecall(
      async () => {
        const [user] = await this.users.manager.query<
          { id: string; email: string; display_name: string; role_id: AuthUser['roleId']; history_paused: boolean }[]
        >(
          `SELECT u.id, u.email, u.display_name, u.role_id, u.history_paused
             FROM sessions s JOIN users u ON u.id = s.user_id
            WHERE s.id = $1 AND s.user_id = $2 AND s.expires_at > now()`,
          [sessionId, userId],
        );
        if (!user) {
          this.lastKnownSessions.delete(sessionId);
          return null;
        }
        const authUser = { id: user.id, email: user.email, displayName: user.display_name, roleId: user.role_id, historyPaused: user.history_paused };
        this.lastKnown.set(userId, authUser);
        this.lastKnownSessions.set(sessionId, userId);
        return { ...authUser, sessionId };
      },
      () => {
        const user = this.lastKnownSessions.get(sessionId) === userId ? this.lastKnown.get(userId) : undefined;
        return user && { ...user, sessionId };
      },
    );
  }

  /**
   * The user a token names, for answers outside the API's guards (the web client's pages, docs/web-client.md › "The
   * bootstrap block"): null when the token is not valid (bad signature, expired, no `exp`, its session ended),
   * as `GET /api/auth/me` would answer 401. A database that is down throws, as for the guards.
   */
  async userOfToken(token: string): Promise<AuthUser | null> {
    let payload: unknown;
    try {
      payload = await this.jwt.verifyAsync(token);
    } catch {
      return null;
    }
    return isSessionPayload(payload) ? this.findSessionUser(payload.sub, payload.sid) : null;
  }

  /** Ends one session (logout): its token is refused from now on, by every process. */
  async endSession(sessionId: string): Promise<void> {
    this.lastKnownSessions.delete(sessionId);
    if (UUID.test(sessionId)) await this.users.manager.query('DELETE FROM sessions WHERE id = $1', [sessionId]);
  }

  /** Ends every session of an account (an admin's reset of its password). */
  private async endSessionsOf(userId: string): Promise<void> {
    this.lastKnown.delete(userId);
    await this.users.manager.query('DELETE FROM sessions WHERE user_id = $1', [userId]);
  }

  /** Accounts created on each of the last `days` (today included, the database's calendar), by day. */
  async signupsPerDay(days: number): Promise<Map<string, number>> {
    // One range of users_created_idx per day.
    const rows = await this.users.manager.query<{ day: string; n: number }[]>(
      `SELECT to_char(x.d, 'YYYY-MM-DD') AS day, (SELECT count(*) FROM users WHERE created_at >= x.d AND created_at < x.d + 1)::int AS n
       FROM ${lastDays('$1')}`,
      [days],
    );
    return new Map(rows.map((row) => [row.day, Number(row.n)]));
  }

  /** The account's own data, for its export: no password hash, no session tokens or ids. */
  async exportAccount(userId: string): Promise<AccountExport> {
    const user = await this.users.findOneByOrFail({ id: userId });
    const sessions = await this.users.manager.query<{ created_at: Date | string; expires_at: Date | string }[]>(
      'SELECT created_at, expires_at FROM sessions WHERE user_id = $1 AND expires_at > now() ORDER BY created_at DESC',
      [userId],
    );
    return {
      id: user.id,
      email: user.email,
      display_name: user.displayName,
      role: user.roleId,
      created_at: iso(user.createdAt),
      history_paused: user.historyPaused,
      sessions: sessions.map((row) => ({ started_at: iso(row.created_at), expires_at: iso(row.expires_at) })),
    };
  }

  /**
   * Deletes the account once its password is given again. One statement: the database removes with it
   * everything that hangs on the member (lists, playlists, history, likes' rows, follows, sessions), so every
   * token of the account is refused from then on, in every process. A wrong password counts as a failed sign-in
   * (the failed sign-ins per account, docs/decisions.md › "Sign-ins under attack"). An admin's account stays: it is managed from the server.
   */
  async deleteAccount(user: AuthUser, password: string): Promise<void> {
    if (user.roleId === 'admin') throw new ConflictError(ADMIN_ACCOUNT, AuthErrorCode.AdminAccount);
    await this.budgets.reserveAttempt(user.email);
    const found = await this.users.createQueryBuilder('u').addSelect('u.passwordHash').where('u.id = :id', { id: user.id }).getOne();
    if (!found || !(await verifyPassword(found.passwordHash, password))) {
      throw new ForbiddenError(WRONG_PASSWORD, AuthErrorCode.WrongPassword);
    }
    await this.budgets.signedIn(user.email);
    this.lastKnown.delete(user.id);
    if (user.sessionId) this.lastKnownSessions.delete(user.sessionId);
    await this.users.manager.query('DELETE FROM users WHERE id = $1', [user.id]);
    this.logger.log(`Account ${user.id} deleted by its member`);
  }

  /**
   * Creates the admin, or promotes and re-keys an existing account; safe to run at every start. The password
   * follows the registration's rule, the account's display name included (WeakPasswordError, nothing changed).
   */
  async ensureAdmin(email: string, password: string): Promise<Omit<User, 'passwordHash'>> {
    const normalized = email.trim().toLowerCase();
    const found = await this.users
      .createQueryBuilder('u')
      .addSelect('u.passwordHash')
      .where('lower(u.email) = :email', { email: normalized })
      .getOne();
    const displayName = found?.displayName ?? normalized.split('@')[0].slice(0, 40).padEnd(2, '_');
    checkPasswordRule(password, { email: normalized, displayName });
    const passwordHash = await hashPassword(password);
    if (found) {
      const { passwordHash: oldHash, ...existing } = found;
      this.lastKnown.delete(existing.id);
      // A new password ends the account's sessions; the same one (ADMIN_PASSWORD at every start) does not.
      if (!(await verifyPassword(oldHash, password))) await this.endSessionsOf(existing.id);
      await this.users.update({ id: existing.id }, { roleId: 'admin', passwordHash });
      return { ...existing, roleId: 'admin' };
    }
    const { passwordHash: _saved, ...created } = await this.users.save(
      this.users.create({ email: normalized, passwordHash, displayName, roleId: 'admin' }),
    );
    this.logger.log(`Created admin ${normalized}`);
    return created;
  }

  /** A new session of `user`, as long as its token lasts; the account's expired ones are dropped meanwhile. */
  private async session(user: User): Promise<SessionDto> {
    const sid = randomUUID();
    await this.users.manager.query('DELETE FROM sessions WHERE user_id = $1 AND expires_at <= now()', [user.id]);
    await this.users.manager.query(
      `INSERT INTO sessions (id, user_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`,
      [sid, user.id, this.config.jwtTtlSeconds],
    );
    const payload: JwtPayload = { sub: user.id, sid };
    return { accessToken: this.jwt.sign(payload), user: toUserDto(user) };
  }

  get tokenTtlSeconds(): number {
    return this.config.jwtTtlSeconds;
  }
}
