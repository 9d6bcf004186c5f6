import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';

export class SecureQuery {
  @ApiProperty({ example: '/videos/2024/06/pool-party/index.m3u8', description: 'A video\'s stream_path' })
  @IsString()
  @MaxLength(600)
  path: string;
}

export class SecureUrlDto {
  @ApiProperty({ description: 'A path, to join with the media host of the video\'s cdn' }) secureUrl: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}
