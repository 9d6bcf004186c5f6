import { NotFoundException } from '@nestjs/common';
import type { DataSource } from 'typeorm';

export const VIDEO_NOT_FOUND = 'Video not found';

/**
 * 404 `Video not found` unless the video exists and is published. One query shared by the catalogue and the
 * counters (the videos service depends on the counters for buffered counts, so the counters cannot ask it).
 */
export async function assertPublishedVideo(db: DataSource, id: number): Promise<void> {
  const [row] = await db.query<{ id: number }[]>(`SELECT id FROM videos WHERE id = $1 AND status = 'ready'`, [id]);
  if (!row) throw new NotFoundException(VIDEO_NOT_FOUND);
}
