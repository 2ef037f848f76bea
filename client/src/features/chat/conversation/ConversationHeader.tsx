import { ActionIcon, Box, Group, Text, Tooltip } from '@mantine/core';
import { IconSettings, IconUsers } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ChatGroup } from '@/api/chat.api';
import { presenceLabel } from '@/components/presence/presence';
import { ModeratedBadge } from '@/features/moderation/ModeratedBadge';
import { usePresence } from '@/realtime/usePresence';
import { toMessageParticipants, toMessageSettings } from '@/routes/paths';
import { ChatHeaderExtras } from '../components/ChatHeaderExtras';
import { PresenceDot, directPartner } from '../components/ChatSidebar';
import { GroupName } from '../components/GroupName';

/** A direct chat's other person: a dot and 'Available' / 'Inactive N minutes' / 'Unavailable'. */
function PartnerPresence({ userCode }: { userCode: string }) {
  const { t } = useTranslation();
  const presence = usePresence([userCode])[userCode] ?? null;
  if (!presence) return null;
  return (
    <Group gap={6} wrap="nowrap" data-testid="chat-header-presence" data-presence={presence.state}>
      <PresenceDot presence={presence} />
      {/* The rule's label keeps its width; on a narrow header the hint gives way. */}
      <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
        {presenceLabel(presence, t)}
      </Text>
      {/* A connected socket is a hint beside the rule, never the rule (spec section 4 counts minutes). */}
      {presence.online ? (
        <Text size="xs" c="dimmed" truncate data-testid="chat-header-online">
          · {t('PRESENCE.ONLINE')}
        </Text>
      ) : null}
    </Group>
  );
}

/** The chat's name, subtitle or the other person's presence, the moderated badge beside the name, then the icons. */
export function ConversationHeader({ group, me }: { group: ChatGroup; me: string | null }) {
  const { t } = useTranslation();
  const partner = directPartner(group, me);
  return (
    <Group
      px="md"
      py="xs"
      justify="space-between"
      wrap="nowrap"
      style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      data-testid="chat-header"
    >
      <Box miw={0}>
        <Group gap="xs" wrap="nowrap" miw={0} data-testid="chat-header-title">
          <GroupName group={group} meCode={me} size="md" fw={700} />
          <ModeratedBadge watched={group.watched} />
        </Group>
        {group.subtitle ? (
          <Text size="xs" c="dimmed" truncate>
            {group.subtitle}
          </Text>
        ) : partner ? (
          <PartnerPresence userCode={partner} />
        ) : null}
      </Box>
      <Group gap={4} wrap="nowrap" data-testid="chat-header-icons">
        <Tooltip label={t('CHAT.PARTICIPANTS')}>
          <ActionIcon
            component={Link}
            to={toMessageParticipants(group.code)}
            variant="subtle"
            aria-label={t('CHAT.PARTICIPANTS')}
            data-testid="chat-open-participants"
          >
            <IconUsers size={18} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label={t('CHAT.SETTINGS')}>
          <ActionIcon component={Link} to={toMessageSettings(group.code)} variant="subtle" aria-label={t('CHAT.SETTINGS')} data-testid="chat-open-settings">
            <IconSettings size={18} />
          </ActionIcon>
        </Tooltip>
        <ChatHeaderExtras />
      </Group>
    </Group>
  );
}
