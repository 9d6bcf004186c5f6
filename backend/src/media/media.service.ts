import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { VideosRepository } from '../videos/videos.repository';
import type { SecureUrlDto } from './dto/secure.dto';
import { signedLifetimeSeconds, signedPath } from './signing';
import { InvalidInputError, NotFoundError } from '../common/errors/domain-errors';

export const BAD_STREAM_PATH = 'path must be a stream path: /videos/{stem}/index.m3u8';

@Injectable()
export class MediaService {
  constructor(
    private readonly videos: VideosRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Signs a published video's HLS folder: the master playlist's URL, whose token its variants and segments share. */
  async secureUrl(streamPath: string, nowMs = Date.now()): Promise<SecureUrlDto> {
    const match = /^\/videos\/(.+)\/index\.m3u8$/.exec(streamPath);
    const stem = match?.[1];
    if (!stem || stem.split('/').some((s) => s === '' || s === '.' || s === '..') || /[\0?#\\]/.test(stem)) {
      throw new InvalidInputError(BAD_STREAM_PATH);
    }
    const video = await this.videos.publishedByStem(stem);
    if (!video) throw new NotFoundError('Video not found');
    const expires = Math.floor(nowMs / 1000) + signedLifetimeSeconds(video.duration);
    return {
      secureUrl: signedPath(`/videos/${stem}/`, 'index.m3u8', expires, this.config.mediaSigningKey),
      expiresAt: new Date(expires * 1000).toISOString(),
    };
  }
}
