import { storedImagePath } from '@hunktube/shared';
import { imageSize } from 'image-size';
import { LRUCache } from 'lru-cache';
import type { StorageService } from '../media/storage.service';

/** How much of an image is read for its size: a JPEG's frame header follows its metadata, well within this. */
const HEAD_BYTES = 64 * 1024;
/** How long a size is trusted: a thumbnail replaced under its name shows its new size within this. */
const SIZE_TTL_MS = 60_000;

type Size = { width: number; height: number };

/**
 * The pixel size of pictures in the thumbnail store (posters, card thumbnails), for `og:image:width` and
 * `og:image:height`: read from the file's header (the `image-size` package: JPEG, PNG, WebP, AVIF) and kept a
 * minute. Null for a picture elsewhere (another host's URL) or one that cannot be read: the head then names none.
 */
export class ImageSizes {
  private readonly known = new LRUCache<string, Size | 'unknown'>({ max: 10_000, ttl: SIZE_TTL_MS });

  constructor(
    private readonly storage: StorageService,
    private readonly imageHost: string,
  ) {}

  async of(pathOrUrl: string | null | undefined): Promise<Size | null> {
    const stored = storedImagePath(pathOrUrl, this.imageHost);
    if (!stored?.startsWith('/thumbs/')) return null;
    let size = this.known.get(stored);
    if (size === undefined) {
      size = (await this.read(stored)) ?? 'unknown';
      this.known.set(stored, size);
    }
    return size === 'unknown' ? null : size;
  }

  private async read(stored: string): Promise<Size | null> {
    try {
      const key = this.storage.keyOf('thumbs', stored.slice('/thumbs/'.length));
      const { width, height } = imageSize(await this.storage.readObjectHead(key, HEAD_BYTES));
      return width > 0 && height > 0 ? { width, height } : null;
    } catch {
      return null;
    }
  }
}
