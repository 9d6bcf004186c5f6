import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsDefined, Matches } from 'class-validator';
import { EXCLUDE_MAX } from '@hunktube/shared';

const Ids = (field: 'categories' | 'performers' | 'tags', example: string[]) =>
  applyDecorators(
    ApiProperty({ type: [String], maxItems: EXCLUDE_MAX, example, description: `Ids (slugs) of ${field}; each must exist` }),
    IsDefined({ message: `${field} must be an array of ids (send [] for none)` }),
    IsArray({ message: `${field} must be an array of ids (send [] for none)` }),
    ArrayMaxSize(EXCLUDE_MAX, { message: `at most ${EXCLUDE_MAX} ${field} may be hidden` }),
    Matches(/^(?=.{1,100}$)[a-z0-9]+(?:-[a-z0-9]+)*$/, {
      each: true,
      message: `each of ${field} must be an id of at most 100 characters: lower-case letters, digits and single hyphens`,
    }),
  );

/** A member's hidden topics, as PUT /api/me/hidden takes them whole and GET answers them (each kind sorted). */
export class HiddenTopicsDto {
  @Ids('categories', ['vintage']) categories: string[];
  @Ids('performers', ['ace-cruz']) performers: string[];
  @Ids('tags', ['feet']) tags: string[];
}
