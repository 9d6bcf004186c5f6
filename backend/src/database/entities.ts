import { User } from '../auth/user.entity';

/**
 * The TypeORM entities. Only `users` is read and written through one (AuthService's repository: account
 * creation and look-ups read well as entity operations); every other table is owned by a module that speaks
 * SQL to it (see docs/architecture.md), so it has no entity that half the code would bypass.
 */
export const ENTITIES = [User];
