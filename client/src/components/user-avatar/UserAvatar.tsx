import { Avatar, Indicator, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { type Presence, presenceLabel } from '@/components/presence/presence';

export interface UserAvatarProps {
  name: string;
  surname?: string;
  /** Image URL; initials show without one. Default: none. */
  url?: string | null;
  /** Shown as a coloured dot with a label; no dot when omitted. Default: none. */
  presence?: Presence | null;
  /** Default: 'md'. */
  size?: 'xs' | 'sm' | 'md' | 'lg' | 'xl' | number;
}

const initials = (name: string, surname?: string) => `${name.trim().charAt(0)}${(surname ?? '').trim().charAt(0)}`.toUpperCase() || '?';

/** A user's avatar, with their presence (green available, yellow away, red unavailable) when known. */
export function UserAvatar({ name, surname, url, presence, size = 'md' }: UserAvatarProps) {
  const { t } = useTranslation();
  const avatar = (
    <Avatar src={url || null} alt={`${name} ${surname ?? ''}`.trim()} radius="xl" size={size} color="brand">
      {initials(name, surname)}
    </Avatar>
  );
  if (!presence) return avatar;
  const label = presenceLabel(presence, t);
  return (
    <Tooltip label={label} withArrow>
      <Indicator color={presence.color} position="bottom-end" size={12} offset={5} withBorder data-presence={presence.state} aria-label={label}>
        {avatar}
      </Indicator>
    </Tooltip>
  );
}
