import { ActionIcon, Badge, Box, Button, Group, ScrollArea, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconPaperclip, IconShieldCheck, IconX } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import type { ChatGroup } from '@/api/chat.api';
import { Spinner } from '@/components/loaders/loaders';
import { type Presence, presenceLabel } from '@/components/presence/presence';
import { sessionStore } from '@/features/session/session.store';
import { usePresence } from '@/realtime/usePresence';
import { paths, toMessageGroup } from '@/routes/paths';
import { CHAT_SIDEBAR_WIDTH } from '../chat-logic';
import { loadGroups } from '../chat-groups.actions';
import type { ChatSidebarState } from '../chat-sidebar.store';
import { chatStore, sortedGroups } from '../chat.store';
import { GROUP_TYPE } from './ChatInfoBar';
import { GroupName } from './GroupName';
import { translationPreference } from '../translation-preference';
import { isSystemMessage, systemMessageBody, systemMessageTitle } from './SystemMessageCard';

function LastMessage({ group }: { group: ChatGroup }) {
  const { t, i18n } = useTranslation();
  const { on: translateOn } = useSnapshot(translationPreference);
  const last = group.lastMessage;
  if (!last)
    return (
      <Text size="xs" c="dimmed">
        {t('CHAT.NO_MESSAGES')}
      </Text>
    );
  const system = isSystemMessage(last) ? (systemMessageBody(last.message, t, (key) => i18n.exists(key)) ?? t(systemMessageTitle(last))) : null;
  // A message of files alone: a paperclip and how many files.
  const files =
    !last.deleted && !system && !last.message?.trim() && last.files?.length ? (
      <>
        <IconPaperclip size={12} aria-hidden style={{ verticalAlign: '-2px', marginInlineEnd: 2 }} data-testid="chat-list-files-icon" />
        {t('CHAT.FILES_COUNT', { count: last.files.length })}
      </>
    ) : null;
  return (
    <Text size="xs" c="dimmed" truncate data-testid="chat-list-last">
      {last.deleted ? t('CHAT.DELETED') : (system ?? files ?? ((translateOn && last.translation) || last.message))}
    </Text>
  );
}

/** The other person of a direct chat (user type, two people); null for every other chat. */
export function directPartner(group: Pick<ChatGroup, 'type' | 'participantCount' | 'participants'>, me: string | null): string | null {
  if (group.type !== GROUP_TYPE.User || group.participantCount !== 2) return null;
  return group.participants.find((p) => p.userCode !== me)?.userCode ?? null;
}

/** Groups the reader is in; a moderator's watched rooms (complete participant list without them) stay out. */
export function listedGroups(groups: readonly ChatGroup[], me: string | null): ChatGroup[] {
  return groups.filter((g) => g.participants.length < g.participantCount || g.participants.some((p) => p.userCode === me));
}

export function PresenceDot({ presence }: { presence: Presence | null }) {
  const { t } = useTranslation();
  const label = presence ? presenceLabel(presence, t) : t('PRESENCE.UNKNOWN');
  return (
    <Tooltip label={label} withArrow>
      <Box
        component="span"
        role="img"
        aria-label={label}
        w={10}
        h={10}
        miw={10}
        style={{
          borderRadius: '50%',
          display: 'inline-block',
          background: presence ? `var(--mantine-color-${presence.color}-6)` : 'var(--mantine-color-gray-4)',
        }}
        data-testid="chat-list-presence"
        data-presence={presence?.state ?? 'unknown'}
      />
    </Tooltip>
  );
}

export interface ChatSidebarProps {
  activeCode: string | null;
  /** Default 'open'; 'closed' renders nothing; 'visible' lies over the chat (narrow screens). */
  state?: ChatSidebarState;
  /** Called when a chat is picked or the overlay is dismissed. */
  onClose?: () => void;
}

/** The chat list, newest activity first; it reorders itself as messages arrive; direct chats show the other person's presence. */
export function ChatSidebar({ activeCode, state = 'open', onClose }: ChatSidebarProps) {
  const { t } = useTranslation();
  const chat = useSnapshot(chatStore);
  const me = useSnapshot(sessionStore).user?.code ?? null;

  useEffect(() => {
    void loadGroups().catch(() => undefined);
  }, []);

  const groups = listedGroups(sortedGroups(chat.groups as Record<string, ChatGroup>), me);
  const partners = groups.map((g) => directPartner(g, me)).filter((c): c is string => Boolean(c));
  const presence = usePresence(partners);

  // The overlay takes the focus when it opens and gives it up with Escape.
  const closeButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (state !== 'visible' || !onClose) return;
    closeButton.current?.focus();
    const handleKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', handleKey);
    return () => window.removeEventListener('keydown', handleKey);
  }, [state, onClose]);

  if (state === 'closed') return null;
  const overlay = state === 'visible';
  return (
    <Box
      id="chat-sidebar"
      w={overlay ? `min(${CHAT_SIDEBAR_WIDTH}px, 100%)` : CHAT_SIDEBAR_WIDTH}
      miw={overlay ? undefined : CHAT_SIDEBAR_WIDTH}
      h="100%"
      bg="var(--mantine-color-body)"
      style={{
        borderRight: '1px solid var(--mantine-color-default-border)',
        ...(overlay ? { position: 'absolute', top: 0, left: 0, bottom: 0, zIndex: 150, boxShadow: 'var(--mantine-shadow-lg)' } : {}),
      }}
      data-testid="chat-sidebar"
      data-state={state}
    >
      <Stack gap={0} h="100%">
        <Group justify="space-between" p="xs" wrap="nowrap">
          <Text fw={700} component="h2" fz="md" m={0}>
            {t('CHAT.LIST')}
          </Text>
          <Group gap={4} wrap="nowrap">
            <Badge variant="light" data-testid="chat-unread-total" aria-label={t('CHAT.UNREAD', { count: chat.unread.total })}>
              {chat.unread.total}
            </Badge>
            {overlay && onClose ? (
              <ActionIcon
                ref={closeButton}
                variant="subtle"
                size="sm"
                onClick={onClose}
                aria-label={t('CHAT_SCREEN.HIDE_LIST')}
                data-testid="chat-sidebar-close"
              >
                <IconX size={16} />
              </ActionIcon>
            ) : null}
          </Group>
        </Group>
        {!chat.listLoaded ? <Spinner size="sm" /> : null}
        {chat.listLoaded && !groups.length ? (
          <Text size="sm" c="dimmed" p="xs">
            {t('CHAT.NO_CHATS')}
          </Text>
        ) : null}
        <ScrollArea style={{ flex: 1 }}>
          <nav aria-label={t('CHAT.LIST')}>
            {groups.map((group) => {
              const partner = directPartner(group, me);
              return (
                <UnstyledButton
                  key={group.code}
                  component={Link}
                  to={toMessageGroup(group.code)}
                  onClick={onClose}
                  display="block"
                  px="xs"
                  py={8}
                  w="100%"
                  bg={group.code === activeCode ? 'var(--mantine-primary-color-light)' : undefined}
                  aria-current={group.code === activeCode ? 'page' : undefined}
                  data-testid={`chat-list-item-${group.code}`}
                  data-unread={group.unread}
                  data-watched={group.watched}
                >
                  <Group justify="space-between" wrap="nowrap" gap="xs">
                    {partner ? <PresenceDot presence={presence[partner] ?? null} /> : null}
                    <Box miw={0} style={{ flex: 1 }}>
                      <GroupName group={group} meCode={me} />
                      <LastMessage group={group} />
                    </Box>
                    {group.watched ? (
                      <Tooltip label={t('MODERATION.MODERATED_HINT')}>
                        <IconShieldCheck
                          size={16}
                          color="var(--mantine-color-orange-6)"
                          aria-label={t('MODERATION.MODERATED')}
                          data-testid="chat-list-moderated"
                        />
                      </Tooltip>
                    ) : null}
                    {group.unread > 0 ? (
                      <Badge size="sm" circle={group.unread < 10} data-testid="chat-list-unread" aria-label={t('CHAT.UNREAD', { count: group.unread })}>
                        {group.unread}
                      </Badge>
                    ) : null}
                  </Group>
                </UnstyledButton>
              );
            })}
          </nav>
        </ScrollArea>
        <Box p="xs">
          <Button component={Link} to={paths.messageNew} onClick={onClose} variant="light" fullWidth size="xs">
            {t('CHAT.NEW')}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
