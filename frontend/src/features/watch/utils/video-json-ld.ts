import type { Video } from '@/lib/api/types';

/** Whole seconds as an ISO 8601 duration: 3725 → "PT1H2M5S", 754 → "PT12M34S", 0 → "PT0S". */
export function isoDuration(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const parts = `${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s || total === 0 ? `${s}S` : ''}`;
  return `PT${parts}`;
}

/** schema.org VideoObject for the watch page; adult content, so never family friendly. */
export function videoJsonLd(
  video: Pick<Video, 'id' | 'upload_date' | 'duration'>,
  { title, thumbnailUrl, pageUrl }: { title: string; thumbnailUrl: string | null; pageUrl: string },
) {
  return {
    '@context': 'https://schema.org',
    '@type': 'VideoObject',
    name: title,
    description: title,
    ...(thumbnailUrl ? { thumbnailUrl: [thumbnailUrl] } : {}),
    uploadDate: video.upload_date,
    ...(video.duration !== null ? { duration: isoDuration(video.duration) } : {}),
    url: pageUrl,
    isFamilyFriendly: false,
  };
}

/** The JSON for a <script type="application/ld+json">, with "<" escaped so a title cannot close the script. */
export const serializeJsonLd = (data: unknown) => JSON.stringify(data).replace(/</g, '\\u003c');
