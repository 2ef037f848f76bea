import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { Type } from 'class-transformer';
import { USER_TYPES } from '#shared/contracts/users';

/** What the provider sent back to /auth/callback/{provider}, passed on by the client. */
export class ProviderLoginDto {
  @ApiProperty({ maxLength: 2048 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  code: string;

  @ApiProperty({ maxLength: 512, description: 'the state the provider sent back' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(512)
  state: string;

  @ApiPropertyOptional({ maxLength: 2048, description: 'the iss the provider sent back (RFC 9207), when it sends one' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  iss?: string;
}

export class ProviderLoginUrlQueryDto {
  @ApiPropertyOptional({ maxLength: 512, description: 'where to land once signed in (a same-origin path); kept through the round trip' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  state?: string;

  @ApiPropertyOptional({ enum: USER_TYPES, description: 'user type of an account this sign-in creates (default 1)' })
  @IsOptional()
  @Type(() => Number)
  @IsIn(USER_TYPES)
  type?: number;
}
