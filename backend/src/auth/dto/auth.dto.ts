import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsString, Length, MaxLength } from 'class-validator';
import { DISPLAY_NAME_MAX_LENGTH, DISPLAY_NAME_MIN_LENGTH, PASSWORD_LENGTH_MESSAGE, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@hunktube/shared';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class RegisterDto {
  @ApiProperty({ example: 'sam@example.com', maxLength: 254 })
  @Transform(trim)
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(254)
  email: string;

  /** The length is checked here; the rest of the password rule (common, the account's names) by the service. */
  @ApiProperty({
    minLength: PASSWORD_MIN_LENGTH,
    maxLength: PASSWORD_MAX_LENGTH,
    description: 'Not a common password, and not containing the e-mail address’s name or the display name (else 400 WEAK_PASSWORD)',
  })
  @IsString()
  @Length(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH, { message: PASSWORD_LENGTH_MESSAGE })
  password: string;

  @ApiProperty({ minLength: DISPLAY_NAME_MIN_LENGTH, maxLength: DISPLAY_NAME_MAX_LENGTH, example: 'Sam' })
  @Transform(trim)
  @IsString()
  @Length(DISPLAY_NAME_MIN_LENGTH, DISPLAY_NAME_MAX_LENGTH, {
    message: `displayName must be ${DISPLAY_NAME_MIN_LENGTH} to ${DISPLAY_NAME_MAX_LENGTH} characters long`,
  })
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
  @ApiProperty({ minLength: DISPLAY_NAME_MIN_LENGTH, maxLength: DISPLAY_NAME_MAX_LENGTH })
  @Transform(trim)
  @IsString()
  @Length(DISPLAY_NAME_MIN_LENGTH, DISPLAY_NAME_MAX_LENGTH, {
    message: `displayName must be ${DISPLAY_NAME_MIN_LENGTH} to ${DISPLAY_NAME_MAX_LENGTH} characters long`,
  })
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
