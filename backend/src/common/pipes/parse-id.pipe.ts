import { BadRequestException, PipeTransform } from '@nestjs/common';

const MAX_INT4 = 2_147_483_647;

/** A positive integer id (videos, playlists) that fits the database's integer column; 400 otherwise. */
export class ParseIdPipe implements PipeTransform<string, number> {
  constructor(private readonly name = 'id') {}

  transform(value: string): number {
    const id = /^[1-9]\d{0,9}$/.test(value) ? Number(value) : NaN;
    if (!(id <= MAX_INT4)) throw new BadRequestException(`${this.name} must be a positive integer`);
    return id;
  }
}

/** `@Param('id', parseId())`: an instance, so Nest does not try to inject the name. */
export const parseId = (name = 'id') => new ParseIdPipe(name);
