import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';

export const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/**
 * The keys of the objects the disk store holds under `folders` of `mediaDir` (`videos/2024/a/index.m3u8`): its
 * files, not its dot-named temporary ones (`.incoming`, `.uploads`); none for a folder that is not there.
 */
export function storedKeys(mediaDir: string, folders: string[] = ['videos', 'thumbs', 'sources']): string[] {
  return folders.flatMap((folder) => {
    let names: string[];
    try {
      names = readdirSync(path.join(mediaDir, folder), { recursive: true, encoding: 'utf8' });
    } catch {
      return [];
    }
    return names
      .filter((name) => !name.split('/').some((s) => s.startsWith('.')) && statSync(path.join(mediaDir, folder, name)).isFile())
      .map((name) => `${folder}/${name}`);
  });
}
