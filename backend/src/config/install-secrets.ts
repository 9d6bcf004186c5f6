import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { secureDataDir } from './data-dir';
import * as path from 'node:path';

/** The file in DATA_DIR that keeps an install's own secrets when the environment does not set them. */
export const SECRETS_FILE = 'secrets.json';

export interface InstallSecrets {
  jwtSecret: string;
  mediaSigningKey: string;
}

const fresh = (): InstallSecrets => ({
  // 256 bits each, in characters the settings' rules accept (no spaces or quotes).
  jwtSecret: randomBytes(32).toString('base64url'),
  mediaSigningKey: randomBytes(32).toString('base64url'),
});

/** Secrets of this process alone, for NODE_ENV=test without them set: never written anywhere. */
export const PROCESS_SECRETS: InstallSecrets = fresh();

function parse(file: string, text: string): InstallSecrets {
  let value: Partial<InstallSecrets>;
  try {
    value = JSON.parse(text) as Partial<InstallSecrets>;
  } catch {
    throw new Error(`${file} is not JSON: remove it (a new one is made at the next start, signing everyone out) or fix it`);
  }
  const ok = (s: unknown, min: number) => typeof s === 'string' && s.length >= min && /^[^\s"]+$/.test(s);
  if (!ok(value.jwtSecret, 32) || !ok(value.mediaSigningKey, 16)) {
    throw new Error(`${file} must hold {"jwtSecret": 32+ characters, "mediaSigningKey": 16+ characters}, without spaces or quotes`);
  }
  return { jwtSecret: value.jwtSecret as string, mediaSigningKey: value.mediaSigningKey as string };
}

/**
 * The install's own secrets, from `DATA_DIR/secrets.json`: made with 256 random bits each at the first start
 * (the folder created owner-only, the file 0600) and read at every start after, by the server and the commands
 * alike, so that sessions and signed media URLs outlive a restart. A file readable by others is made
 * owner-only again. Two processes starting together agree: the file is created exclusively, and the one that
 * loses reads the winner's.
 */
export function installSecrets(dataDir: string): InstallSecrets {
  const file = path.join(dataDir, SECRETS_FILE);
  secureDataDir(dataDir);
  const read = () => {
    const text = readFileSync(file, 'utf8');
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    return parse(file, text);
  };
  try {
    return read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secrets = fresh();
  try {
    writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    return secrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return read();
    throw error;
  }
}
