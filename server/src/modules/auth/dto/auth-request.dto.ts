import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsEmail, IsNotEmpty, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { NAME_MAX_LENGTH, Optional, ProfileField } from '../../users/dto/profile-fields';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
const EMAIL_MAX_LENGTH = 254;

export class RegisterDto {
  @ApiProperty({ maxLength: EMAIL_MAX_LENGTH })
  @IsString()
  @MaxLength(EMAIL_MAX_LENGTH)
  @IsEmail()
  email: string;

  @ApiProperty({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH })
  @IsString()
  @MinLength(PASSWORD_MIN_LENGTH)
  @MaxLength(PASSWORD_MAX_LENGTH)
  password: string;

  @ApiProperty({ minLength: 1, maxLength: NAME_MAX_LENGTH })
  @ProfileField.name(true)
  name: string;

  @ProfileField.surname()
  surname?: string;

  @ProfileField.type()
  type?: number;

  @ProfileField.country()
  country?: string | null;

  @ProfileField.lang()
  lang?: string;

  @ProfileField.timezone()
  timezone?: string;
}

export class LoginDto {
  @ApiProperty({ maxLength: EMAIL_MAX_LENGTH })
  @IsString()
  @MaxLength(EMAIL_MAX_LENGTH)
  @IsEmail()
  email: string;

  @ApiProperty({ maxLength: PASSWORD_MAX_LENGTH })
  @IsString()
  @IsNotEmpty()
  @MaxLength(PASSWORD_MAX_LENGTH)
  password: string;

  @ApiPropertyOptional({ default: false, description: 'a persistent refresh cookie (REFRESH_TOKEN_TTL_REMEMBER) instead of a session cookie' })
  @Optional()
  @IsBoolean()
  rememberMe?: boolean;

  @ApiPropertyOptional({ maxLength: 2048, description: "where to go after login; only a same-origin path starting with one '/' is honoured" })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  returnUrl?: string;

  @ApiPropertyOptional({ maxLength: 64, description: 'from a provider sign-in answered LINK_NEEDS_PASSWORD: links that provider once the password is right' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  linkToken?: string;
}

export class LoginUrlQueryDto {
  @ApiPropertyOptional({ maxLength: 512, description: 'opaque value the provider sends back' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  state?: string;
}
