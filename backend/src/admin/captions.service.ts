import { Inject, Injectable } from '@nestjs/common';
import { captionsPathOf } from '../common/media-paths';
import { InvalidInputError, NotFoundError, UnsupportedMediaError } from '../common/errors/domain-errors';
import { CaptionsFileError, toWebVtt } from '../media/captions/captions-text';
import { StorageService } from '../media/storage.service';
import type { CaptionDto } from '../videos/dto/video.dto';
import { captionUrl } from '../videos/video.mapper';
import { VIDEO_NOT_FOUND, VideosRepository } from '../videos/videos.repository';
import { CAPTION_LABEL_MAX_LENGTH, type UploadCaptionsDto } from './dto/captions.dto';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';

export const NO_CAPTIONS_FILE = 'No file selected: send the captions in the multipart field "file"';
export const BAD_LANG = 'lang must be a BCP 47 language tag, like en, pt-BR or zh-Hant';
export const NO_SUCH_CAPTIONS = 'This video has no captions in that language';

/** The part of a multer file this service reads (memory storage). */
export interface UploadedCaptions {
  buffer: Buffer;
}

/** A language tag in its canonical form (`EN-us` → `en-US`), or null when it is not a well-formed BCP 47 tag. */
export function canonicalLang(tag: string): string | null {
  // The primary language is an ISO 639 code (2 or 3 letters): the longer ones BCP 47 reserves are not in use.
  if (!/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/.test(tag)) return null;
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    return canonical && canonical.length <= 35 ? canonical : null;
  } catch {
    return null;
  }
}

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });

/**
 * Admins' caption files (issue #34, point 5): one WebVTT file per video and language, converted from SRT and
 * sanitised (captions-text.ts), written to the media store beside the video's poster (public under the image
 * host), and recorded with its label.
 */
@Injectable()
export class CaptionsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly videos: VideosRepository,
    private readonly storage: StorageService,
  ) {}

  async upload(id: number, file: UploadedCaptions | undefined, dto: UploadCaptionsDto): Promise<CaptionDto> {
    if (!file) throw new InvalidInputError(NO_CAPTIONS_FILE);
    const lang = canonicalLang(dto.lang.trim());
    if (!lang) throw new InvalidInputError(BAD_LANG);
    const label = (dto.label?.trim() || languageNames.of(lang) || lang).slice(0, CAPTION_LABEL_MAX_LENGTH);
    const row = await this.videos.cardRow(id, true);
    if (!row) throw new NotFoundError(VIDEO_NOT_FOUND);
    let vtt: string;
    try {
      vtt = toWebVtt(file.buffer);
    } catch (error) {
      if (error instanceof CaptionsFileError) throw new UnsupportedMediaError(`${error.message}: send a WebVTT or SRT file`);
      throw error;
    }
    await this.storage.writeObject(this.keyOf(row.url, lang), vtt);
    const stored = await this.videos.putCaption(id, lang, label);
    return { lang, label, url: captionUrl(row.url, stored, this.config.imageHost) };
  }

  async remove(id: number, tag: string): Promise<void> {
    const lang = canonicalLang(tag);
    if (!lang) throw new InvalidInputError(BAD_LANG);
    const row = await this.videos.cardRow(id, true);
    if (!row) throw new NotFoundError(VIDEO_NOT_FOUND);
    if (!(await this.videos.removeCaption(id, lang))) throw new NotFoundError(NO_SUCH_CAPTIONS);
    await this.storage.removeObject(this.keyOf(row.url, lang));
  }

  /** The media store's key of a video's caption file: its public path (`/thumbs/…`) without the leading slash. */
  private keyOf(url: string, lang: string): string {
    return this.storage.keyOf('thumbs', captionsPathOf(url, lang).slice('/thumbs/'.length));
  }
}
