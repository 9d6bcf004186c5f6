import type { HistoryVideoCardDto, VideoCardDto } from '../videos/dto/video.dto';
import { iso } from '../common/utils/iso';

/** History cards: each card with the time its video was last watched (matched by id: one entry per video). */
export function toHistoryCards(cards: VideoCardDto[], rows: { id: number; watched_at: Date | string }[]): HistoryVideoCardDto[] {
  const watchedAt = new Map(rows.map((row) => [Number(row.id), iso(row.watched_at)]));
  return cards.map((card) => ({ ...card, watched_at: watchedAt.get(card.id) }));
}
