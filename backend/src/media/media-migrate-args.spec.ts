import { parseMigrateArgs } from './media-migrate-args';

describe('media:migrate arguments', () => {
  it('takes the target store, a dry run, keep and a grace in seconds', () => {
    expect(parseMigrateArgs(['--to', 's3'])).toEqual({ to: 's3', dryRun: false, keep: false, graceSeconds: 60 });
    expect(parseMigrateArgs(['--to=disk', '--dry-run'])).toMatchObject({ to: 'disk', dryRun: true });
    expect(parseMigrateArgs(['--keep', '--to', 'disk', '--grace', '5'])).toEqual({ to: 'disk', dryRun: false, keep: true, graceSeconds: 5 });
  });

  it.each([[[]], [['--to']], [['--to', 'ftp']], [['s3']], [['--to', 's3', '--grace']], [['--to', 's3', '--grace', '-1']], [['--to', 's3', '--force']]])('refuses %j', (args) => {
    expect(parseMigrateArgs(args)).toBeNull();
  });
});
