import { BackupError } from './backup-error';
import { BackupManifest, backupFolderName, checkRestorable, parseManifest } from './manifest';

const good: BackupManifest = {
  format: 'hunktube-backup',
  formatVersion: 1,
  mode: 'embedded',
  createdAt: '2025-06-01T10:20:30.000Z',
  appVersion: '0.1.0',
  migration: 'ScheduledTasks1795000000000',
  databaseTool: 'PGlite dumpDataDir (PostgreSQL 17.5)',
  database: { file: 'database.tar.gz', bytes: 10, sha256: 'a'.repeat(64) },
  media: { file: 'media.tar', bytes: 20, sha256: 'b'.repeat(64) },
};

describe('the backup manifest', () => {
  it('names folders by time, safely for any file system', () => {
    expect(backupFolderName(new Date('2025-06-01T10:20:30.456Z'))).toBe('hunktube-backup-2025-06-01T10-20-30Z');
  });

  it('reads back what a backup writes', () => {
    expect(parseManifest(JSON.stringify(good))).toEqual(good);
  });

  it.each([
    ['not JSON', '{', /is not JSON/],
    ['not ours', JSON.stringify({ format: 'something-else' }), /does not describe a hunktube-backup/],
    ['from a newer version', JSON.stringify({ ...good, formatVersion: 2 }), /format version 2; this version of the app reads up to 1\. Update the app first/],
    ['damaged', JSON.stringify({ ...good, mode: 'cloud', media: { file: '../../etc/passwd', bytes: 1, sha256: 'c'.repeat(64) } }), /damaged \(bad mode, media\)/],
  ])('refuses a manifest %s', (_what, text, message) => {
    expect(() => parseManifest(text)).toThrow(BackupError);
    expect(() => parseManifest(text)).toThrow(message);
  });

  it('refuses a backup of the other mode, saying which setting to change', () => {
    expect(() => checkRestorable(good, { mode: 'server', knownMigrations: [good.migration as string] })).toThrow(/embedded database, but DATABASE_URL is set: unset it/);
    expect(() => checkRestorable({ ...good, mode: 'server' }, { mode: 'embedded', knownMigrations: [good.migration as string] })).toThrow(
      /PostgreSQL server database, but DATABASE_URL is not set/,
    );
  });

  it('refuses a schema newer than this code, and takes an older or empty one', () => {
    expect(() => checkRestorable(good, { mode: 'embedded', knownMigrations: ['InitialSchema1763769600000'] })).toThrow(
      /schema \(migration ScheduledTasks1795000000000\) is newer than this version of the app knows: update the app/,
    );
    expect(() => checkRestorable({ ...good, migration: 'InitialSchema1763769600000' }, { mode: 'embedded', knownMigrations: ['InitialSchema1763769600000', 'X2'] })).not.toThrow();
    expect(() => checkRestorable({ ...good, migration: null }, { mode: 'embedded', knownMigrations: [] })).not.toThrow();
  });
});
