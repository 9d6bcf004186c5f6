import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsString, Length, MaxLength } from 'class-validator';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class RegisterDto {
  @ApiProperty({ example: 'sam@example.com', maxLength: 254 })
  @Transform(trim)
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(254)
  email: string;

  @ApiProperty({ minLength: 8, maxLength: 128 })
  @IsString()
  @Length(8, 128, { message: 'password must be 8 to 128 characters long' })
  password: string;

  @ApiProperty({ minLength: 2, maxLength: 40, example: 'Sam' })
  @Transform(trim)
  @IsString()
  @Length(2, 40, { message: 'displayName must be 2 to 40 characters long' })
  displayName: string;
}

export class LoginDto {
  @ApiProperty({ example: 'sam@example.com' })
  @Transform(trim)
  @IsString()
  @MaxLength(254)
  email: string;

  @ApiProperty()
  @IsString()
  @MaxLength(1024)
  password: string;
}

export class UpdateProfileDto {
  @ApiProperty({ minLength: 2, maxLength: 40 })
  @Transform(trim)
  @IsString()
  @Length(2, 40, { message: 'displayName must be 2 to 40 characters long' })
  displayName: string;
}

export class UserMetadataDto {
  @ApiProperty()
  display_name: string;

  @ApiProperty({ enum: ['member', 'admin'], nullable: true, type: String })
  role_id: 'member' | 'admin' | null;
}

export class UserDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  email: string;

  @ApiProperty({ type: UserMetadataDto })
  user_metadata: UserMetadataDto;
}

export class SessionDto {
  @ApiProperty()
  accessToken: string;

  @ApiProperty({ type: UserDto })
  user: UserDto;
}

export class MeDto {
  @ApiProperty({ type: UserDto })
  user: UserDto;
}
