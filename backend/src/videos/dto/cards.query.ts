import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { CONTINUE_WATCHING_LIMIT } from '@hunktube/shared';
import { ExcludeQuery } from './list-videos.query';

/** The most cards one GET /api/cards answers: a row's worth. */
export const MAX_CARD_IDS = CONTINUE_WATCHING_LIMIT;
export const CARD_IDS_MESSAGE = `ids must be 1 to ${MAX_CARD_IDS} video ids separated by commas`;

export class CardsQuery extends ExcludeQuery {
  @ApiProperty({ example: '42,7,19', description: `Up to ${MAX_CARD_IDS} video ids, comma-separated, in the order wanted` })
  @Matches(new RegExp(`^[1-9]\\d{0,9}(?:,[1-9]\\d{0,9}){0,${MAX_CARD_IDS - 1}}$`), { message: CARD_IDS_MESSAGE })
  ids: string;
}
