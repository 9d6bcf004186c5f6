import { clientTooOld, databaseNameOf, installHint, libpqTarget, majorVersion, pgRestoreArgs } from './libpq';

describe('calling pg_dump and pg_restore', () => {
  it('moves the password from the URL into PGPASSWORD, decoded, and keeps the rest', () => {
    expect(libpqTarget('postgres://app:p%40ss%3Aw0rd@db.example:5433/site?sslmode=require')).toEqual({
      dbname: 'postgres://app@db.example:5433/site?sslmode=require',
      env: { PGPASSWORD: 'p@ss:w0rd' },
    });
    expect(libpqTarget('postgresql://postgres@127.0.0.1:5432/test')).toEqual({ dbname: 'postgresql://postgres@127.0.0.1:5432/test', env: {} });
  });

  it('names the database for messages', () => {
    expect(databaseNameOf('postgres://u:p@h:5432/my%20site?x=1')).toBe('my site');
    expect(databaseNameOf('postgres://u@h')).toBe('(default)');
  });

  it('reads the major version of a tool or a server', () => {
    expect(majorVersion('pg_dump (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)')).toBe(15);
    expect(majorVersion('pg_restore (PostgreSQL) 16.4')).toBe(16);
    expect(majorVersion('9.6.24')).toBe(9.6);
    expect(majorVersion('no version here')).toBeNull();
  });

  it('refuses a client older than the server, and says what to install', () => {
    expect(clientTooOld('pg_dump', 16, 15)).toBeNull();
    expect(clientTooOld('pg_dump', 15, 15)).toBeNull();
    expect(clientTooOld('pg_dump', 15, 16)).toBe(
      'pg_dump 15 cannot work with a PostgreSQL 16 server: install the PostgreSQL 16 client tools (Debian and Ubuntu: apt-get install postgresql-client-16, from apt.postgresql.org if need be) and run it again.',
    );
    expect(installHint('pg_dump')).toMatch(/^pg_dump was not found on the PATH\. .*apt-get install postgresql-client/);
  });

  it('restores all or nothing, owned by the restoring role', () => {
    expect(pgRestoreArgs('postgres://u@h/db', '/b/database.dump')).toEqual([
      '--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', '--dbname=postgres://u@h/db', '/b/database.dump',
    ]);
  });
});
