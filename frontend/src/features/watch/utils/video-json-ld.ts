import { chapterSpans, describeVideo, isoDuration } from '@hunktube/shared';
import type { Video } from '@/lib/api/types';

export { isoDuration };

/**
 * schema.org VideoObject for the watch page, as the server writes it in the page's head (backend/src/web):
 * adult content, so never family friendly. Used when the server's head does not describe the page (a video
 * opened from another page of the app). Its chapters are `Clip` parts, each at its `?t=` address (Google's key
 * moments).
 */
export function videoJsonLd(
  video: Pick<Video, 'id' | 'upload_date' | 'duration'> & Partial<Pick<Video, 'views' | 'categories' | 'performers' | 'chapters'>>,
  { title, thumbnailUrl, pageUrl }: { title: string; thumbnailUrl: string | null; pageUrl: string },
) {
  const description = describeVideo(
    title,
    (video.performers ?? []).map((p) => p.name),
    (video.categories ?? []).map((c) => c.name),
  );
  return {
    '@context': 'https://schema.org',
    '@type': 'VideoObject',
    name: title,
    description,
    ...(thumbnailUrl ? { thumbnailUrl: [thumbnailUrl] } : {}),
    uploadDate: video.upload_date,
    ...(video.duration !== null ? { duration: isoDuration(video.duration) } : {}),
    url: pageUrl,
    embedUrl: pageUrl.replace(/\/video\/(\d+)$/, '/embed/$1'),
    ...(video.views !== undefined
      ? {
          interactionStatistic: {
            '@type': 'InteractionCounter',
            interactionType: { '@type': 'WatchAction' },
            userInteractionCount: video.views,
          },
        }
      : {}),
    ...(video.chapters?.length
      ? {
          hasPart: chapterSpans(video.chapters, video.duration).map((chapter) => ({
            '@type': 'Clip',
            name: chapter.title,
            startOffset: chapter.start,
            ...(chapter.end !== null ? { endOffset: chapter.end } : {}),
            url: `${pageUrl}?t=${chapter.start}`,
          })),
        }
      : {}),
    isFamilyFriendly: false,
  };
}

/** The JSON for a <script type="application/ld+json">, with "<" escaped so a title cannot close the script. */
export const serializeJsonLd = (data: unknown) => JSON.stringify(data).replace(/</g, '\\u003c');
