import { ApiProperty } from '@nestjs/swagger';
import type { MeResponse, UserAvatar, UserResponse, UserStatusResponse, UserTimezone } from '#shared/contracts/rest/users';
import { LOGGED_IN_ROLES } from '#shared/contracts/roles';
import { USER_TYPES } from '#shared/contracts/users';

export class UserAvatarDto implements UserAvatar {
  @ApiProperty({ example: 'initials', description: "'initials' (no image: draw the initials), 'gravatar' (the user opted in) or 'custom'" })
  code: string;
  @ApiProperty({ nullable: true, type: String, description: 'null for initials' }) url: string | null;
}

export class UserTimezoneDto implements UserTimezone {
  @ApiProperty({ example: 'CET' }) abbr: string;
  @ApiProperty({ example: 'Europe/Warsaw' }) name: string;
  @ApiProperty({ example: 60, description: 'minutes east of UTC, now' }) offset: number;
}

/** A user as anyone who may see them sees them (spec section 3, User). */
export class UserResponseDto implements UserResponse {
  @ApiProperty() code: string;
  @ApiProperty() name: string;
  @ApiProperty() surname: string;
  @ApiProperty({ enum: USER_TYPES, description: '1 personal, 2 company' }) type: number;
  @ApiProperty({ type: UserAvatarDto }) avatar: UserAvatarDto;
  @ApiProperty({ nullable: true, type: String, description: 'ISO 3166-1 alpha-2' }) country: string | null;
  @ApiProperty({ example: 'eng' }) lang: string;
  @ApiProperty({ type: UserTimezoneDto }) timezone: UserTimezoneDto;
  @ApiProperty({ type: [String], description: 'codes of the jobs the user takes part in (none yet)' }) jobIds: string[];
  @ApiProperty({ nullable: true, type: Number, description: 'whole minutes since the last activity; null if never seen' })
  away: number | null;
}

/** The caller's own profile: also the e-mail, the role and the instance. */
export class MeResponseDto extends UserResponseDto implements MeResponse {
  @ApiProperty() email: string;
  @ApiProperty({ enum: LOGGED_IN_ROLES, description: 'instance user 0, global user 10, instance admin 50, global admin 100' })
  role: number;
  @ApiProperty() instanceCode: string;
}

export class UserStatusDto implements UserStatusResponse {
  @ApiProperty() userCode: string;
  @ApiProperty({ description: 'has at least one connected socket' }) online: boolean;
  @ApiProperty({ nullable: true, type: String, description: 'ISO 8601' }) lastActiveAt: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'whole minutes since the last activity; null if never seen' })
  away: number | null;
  @ApiProperty({ nullable: true, type: Number, description: 'milliseconds since the last activity when this was read; null if never seen' })
  idleMs: number | null;
}
