import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, promises as fs } from 'node:fs';
import type { Readable } from 'node:stream';
import { BackupError } from './backup-error';
import type { StoredFile } from './manifest';

/**
 * Writes a stream to a new file (refusing to replace one; readable by its owner only: a backup holds every
 * account's password hash) and answers its size and SHA-256, computed on the way.
 */
export async function writeHashed(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, file: string): Promise<Omit<StoredFile, 'file'>> {
  const out = createWriteStream(file, { flags: 'wx', mode: 0o600 });
  const hash = createHash('sha256');
  let bytes = 0;
  try {
    for await (const chunk of source) {
      hash.update(chunk);
      bytes += chunk.length;
      if (!out.write(chunk)) await once(out, 'drain');
    }
  } finally {
    out.end();
    await once(out, 'close');
  }
  return { bytes, sha256: hash.digest('hex') };
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** True when the folder is missing or has nothing in it. */
export async function isEmptyFolder(folder: string): Promise<boolean> {
  const entries = await fs.readdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return entries.length === 0;
}

/** Removes what a folder holds, not the folder itself (it may be a mount point, as the stack's /media is). */
export async function emptyFolder(folder: string): Promise<void> {
  for (const entry of await fs.readdir(folder).catch(() => [] as string[])) {
    await fs.rm(`${folder}/${entry}`, { recursive: true, force: true });
  }
}

export interface ToolRun {
  code: number;
  stderr: string;
  /** stdout as text, when it was not written to a file. */
  stdout: string;
  /** The size and hash of stdout when it was written to a file. */
  output?: Omit<StoredFile, 'file'>;
}

/**
 * Runs a command-line tool (tar, pg_dump, pg_restore): stdout into `outputFile` when given, stdin from `inputFile`.
 * A missing tool throws a BackupError with `missingHint`.
 */
export async function runTool(
  command: string,
  args: string[],
  options: { env?: Record<string, string>; outputFile?: string; inputFile?: string; missingHint: string },
): Promise<ToolRun> {
  const child = spawn(command, args, {
    env: { ...process.env, ...options.env },
    stdio: [options.inputFile ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT' ? new BackupError(options.missingHint) : error));
  });
  const closed = once(child, 'close') as Promise<[number | null, NodeJS.Signals | null]>;
  let stderr = '';
  let stdout = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    if (stderr.length < 20_000) stderr += text;
  });
  if (!options.outputFile) {
    child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      if (stdout.length < 20_000) stdout += text;
    });
  }
  await spawned;
  if (options.inputFile && child.stdin) {
    const input = createReadStream(options.inputFile);
    input.pipe(child.stdin);
    child.stdin.on('error', () => undefined); // the tool quit early: its exit code and stderr tell why
  }
  const output = options.outputFile && child.stdout ? writeHashed(child.stdout as Readable, options.outputFile) : undefined;
  const [[code, signal], written] = await Promise.all([closed, output]);
  return { code: code ?? (signal ? 128 : 1), stderr: stderr.trim(), stdout: stdout.trim(), output: written };
}
