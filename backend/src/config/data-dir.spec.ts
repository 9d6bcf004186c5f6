import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ownerOnlyFiles, secureDataDir, tightenFiles, UnsafeDataDirError } from './data-dir';

const modeOf = (p: string) => statSync(p).mode & 0o777;

describe('DATA_DIR is the server’s alone', () => {
  let root: string;
  let umask: number;

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'data-dir-'));
    umask = process.umask();
  });
  afterEach(() => {
    process.umask(umask);
    rmSync(root, { recursive: true, force: true });
  });

  it('creates a missing one owner-only, whatever the umask', () => {
    process.umask(0o000);
    const dir = path.join(root, 'a', 'data');
    secureDataDir(dir);
    expect(modeOf(dir)).toBe(0o700);
  });

  it.each([0o777, 0o775, 0o757, 0o722])('refuses one that others can write (mode %o), saying how to fix it', (mode) => {
    const dir = path.join(root, 'data');
    mkdirSync(dir);
    chmodSync(dir, mode);
    expect(() => secureDataDir(dir)).toThrow(UnsafeDataDirError);
    expect(() => secureDataDir(dir)).toThrow(`can be written by users other than its owner (mode 0${mode.toString(8)})`);
    expect(() => secureDataDir(dir)).toThrow(`run \`chmod 700 ${dir}\``);
    expect(modeOf(dir)).toBe(mode);
  });

  it('tightens one that others can only read, and leaves an owner-only one as it is', () => {
    const dir = path.join(root, 'data');
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    secureDataDir(dir);
    expect(modeOf(dir)).toBe(0o700);
    secureDataDir(dir);
    expect(modeOf(dir)).toBe(0o700);
  });

  it('makes what an older version left open owner-only, and every file made after owner-only too', () => {
    const db = path.join(root, 'pglite');
    mkdirSync(path.join(db, 'base', '1'), { recursive: true });
    chmodSync(path.join(db, 'base'), 0o777);
    writeFileSync(path.join(db, 'base', '1', '1259'), 'x');
    chmodSync(path.join(db, 'base', '1', '1259'), 0o666);
    writeFileSync(path.join(db, 'PG_VERSION'), '16');
    chmodSync(path.join(db, 'PG_VERSION'), 0o644);
    const outside = path.join(root, 'outside.txt');
    writeFileSync(outside, 'not ours');
    chmodSync(outside, 0o644);
    symlinkSync(outside, path.join(db, 'link'));

    ownerOnlyFiles();
    tightenFiles(db);
    expect(modeOf(path.join(db, 'base'))).toBe(0o700);
    expect(modeOf(path.join(db, 'base', '1', '1259'))).toBe(0o600);
    expect(modeOf(path.join(db, 'PG_VERSION'))).toBe(0o600);
    expect(modeOf(outside)).toBe(0o644); // a link is not followed
    writeFileSync(path.join(db, 'new-wal-segment'), 'y', { mode: 0o666 });
    expect(modeOf(path.join(db, 'new-wal-segment'))).toBe(0o600);
  });
});
