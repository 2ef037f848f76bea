import { gravatarUrl } from '../../common/gravatar';
import { MeResponseDto, UserAvatarDto, UserResponseDto } from './dto/user-response.dto';
import { timezoneInfo } from './timezone-info';
import { UserEntity } from './user.entity';

type ProfileFields = Pick<UserEntity, 'code' | 'name' | 'surname' | 'type' | 'country' | 'lang' | 'timezone' | 'email' | 'avatarUrl'>;

/** The stored avatar if the user set one, else the Gravatar identicon of the e-mail. */
export function mapAvatar(user: Pick<UserEntity, 'email' | 'avatarUrl'>): UserAvatarDto {
  return user.avatarUrl ? { code: 'custom', url: user.avatarUrl } : { code: 'gravatar', url: gravatarUrl(user.email) };
}

/** What anyone who may see the user sees: no e-mail, role or internal id. */
export function mapUser(user: ProfileFields, away: number | null, now = new Date()): UserResponseDto {
  return {
    code: user.code,
    name: user.name,
    surname: user.surname,
    type: user.type,
    avatar: mapAvatar(user),
    country: user.country,
    lang: user.lang,
    timezone: timezoneInfo(user.timezone, now),
    jobIds: [],
    away,
  };
}

export function mapMe(user: ProfileFields & Pick<UserEntity, 'role'>, instanceCode: string, away: number | null): MeResponseDto {
  return { ...mapUser(user, away), email: user.email, role: user.role, instanceCode };
}
