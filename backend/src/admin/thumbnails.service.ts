import { Injectable } from '@nestjs/common';
import { parseImageVariant } from '@hunktube/shared';
import { ImageVariants, THUMBNAIL_COPIES } from '../media/image-variants';
import { NotAFilePathError, StorageService } from '../media/storage.service';
import type { ThumbnailUrlDto } from './dto/update-thumbnail.dto';
import { sniffImageType } from './image-type';
import { parseThumbnailPath } from './thumbnail-path';
import { InvalidInputError, UnsupportedMediaError } from '../common/errors/domain-errors';

/** Thumbnails are at most this large (413 past it). */
export const THUMBNAIL_MAX_BYTES = 10 * 1024 * 1024;

export const NO_FILE = 'No file selected: send the image in the multipart field "file"';
export const NOT_AN_IMAGE = 'The file must be a JPEG, PNG, WebP or AVIF image';
export const NAMES_A_COPY = 'uploadPath names a WebP copy that the site makes itself: upload the original image instead';

/** The part of a multer file this service reads (memory storage). */
export interface UploadedImage {
  buffer: Buffer;
  size: number;
}

@Injectable()
export class ThumbnailsService {
  constructor(
    private readonly storage: StorageService,
    private readonly images: ImageVariants,
  ) {}

  /**
   * Replaces the thumbnail file at `uploadPath` with `file`, atomically. The bytes must be an image of a kind
   * browsers show (by content, whatever the name says); the path must stay inside the thumbnail store and name
   * an original, not one of its WebP copies.
   */
  async replace(file: UploadedImage | undefined, uploadPath: string): Promise<ThumbnailUrlDto> {
    if (!file) throw new InvalidInputError(NO_FILE);
    const parsed = parseThumbnailPath(uploadPath);
    if (!parsed.ok) throw new InvalidInputError(parsed.error);
    if (parseImageVariant(parsed.relative)) throw new InvalidInputError(NAMES_A_COPY);
    if (!sniffImageType(file.buffer)) throw new UnsupportedMediaError(NOT_AN_IMAGE);
    const target = this.storage.keyOf('thumbs', parsed.relative);
    try {
      await this.storage.writeObject(target, file.buffer);
    } catch (error) {
      if (error instanceof NotAFilePathError) {
        throw new InvalidInputError('uploadPath must name a file, not a folder or a path through a file');
      }
      throw error;
    }
    // The cards' WebP copies follow the new image; when it cannot be converted (ffmpeg here reads no AVIF), the
    // old copies go and requests for them get the image itself.
    try {
      await this.images.deriveStored(target, THUMBNAIL_COPIES);
    } catch {
      await this.images.removeCopies(target);
    }
    return { url: parsed.url };
  }
}
