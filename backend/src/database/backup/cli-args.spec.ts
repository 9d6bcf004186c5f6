import { BACKUP_USAGE, parseBackupArgs, parseRestoreArgs, RESTORE_USAGE } from './cli-args';

describe('the backup and restore command lines', () => {
  it('takes an optional output folder for the backup', () => {
    expect(parseBackupArgs([])).toEqual({ ok: true, value: { out: null } });
    expect(parseBackupArgs(['--out', '/srv/b'])).toEqual({ ok: true, value: { out: '/srv/b' } });
    expect(parseBackupArgs(['--out=/srv/b'])).toEqual({ ok: true, value: { out: '/srv/b' } });
  });

  it('refuses what it does not know, with the usage', () => {
    expect(parseBackupArgs(['--out'])).toEqual({ ok: false, help: false, message: `Unknown or incomplete argument: --out\n${BACKUP_USAGE}` });
    expect(parseBackupArgs(['--force'])).toMatchObject({ ok: false, help: false });
    expect(parseBackupArgs(['--help'])).toEqual({ ok: false, help: true, message: BACKUP_USAGE });
  });

  it('needs the folder to restore and takes --force', () => {
    expect(parseRestoreArgs(['backups/x'])).toEqual({ ok: true, value: { source: 'backups/x', force: false } });
    expect(parseRestoreArgs(['--force', 'backups/x'])).toEqual({ ok: true, value: { source: 'backups/x', force: true } });
    expect(parseRestoreArgs([])).toEqual({ ok: false, help: false, message: `Name the backup folder to restore.\n${RESTORE_USAGE}` });
    expect(parseRestoreArgs(['a', 'b'])).toMatchObject({ ok: false, message: expect.stringMatching(/^Unknown argument: b/) });
    expect(parseRestoreArgs(['a', '--yes'])).toMatchObject({ ok: false, message: expect.stringMatching(/^Unknown argument: --yes/) });
  });
});
