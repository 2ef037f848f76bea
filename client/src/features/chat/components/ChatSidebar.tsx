import { Badge, Box, Button, Group, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import type { ChatGroup } from '@/api/chat.api';
import { Spinner } from '@/components/loaders/loaders';
import { sessionStore } from '@/features/session/session.store';
import { paths, toMessageGroup } from '@/routes/paths';
import { CHAT_SIDEBAR_WIDTH } from '../chat-logic';
import { loadGroups } from '../chat.actions';
import { chatStore, sortedGroups } from '../chat.store';
import { GroupName } from './GroupName';

function LastMessage({ group }: { group: ChatGroup }) {
  const { t } = useTranslation();
  const last = group.lastMessage;
  if (!last) return <Text size="xs" c="dimmed">{t('CHAT.NO_MESSAGES')}</Text>;
  return (
    <Text size="xs" c="dimmed" truncate data-testid="chat-list-last">
      {last.deleted ? t('CHAT.DELETED') : last.message}
    </Text>
  );
}

/** The chat list, newest activity first; it reorders itself as messages arrive. */
export function ChatSidebar({ activeCode }: { activeCode: string | null }) {
  const { t } = useTranslation();
  const chat = useSnapshot(chatStore);
  const me = useSnapshot(sessionStore).user?.code ?? null;

  useEffect(() => {
    void loadGroups().catch(() => undefined);
  }, []);

  const groups = sortedGroups(chat.groups as Record<string, ChatGroup>);
  return (
    <Box w={CHAT_SIDEBAR_WIDTH} miw={CHAT_SIDEBAR_WIDTH} h="100%" style={{ borderRight: '1px solid var(--mantine-color-default-border)' }} data-testid="chat-sidebar">
      <Stack gap={0} h="100%">
        <Group justify="space-between" p="xs">
          <Text fw={700}>{t('CHAT.LIST')}</Text>
          <Badge variant="light" data-testid="chat-unread-total">
            {chat.unread.total}
          </Badge>
        </Group>
        {!chat.listLoaded ? <Spinner size="sm" /> : null}
        {chat.listLoaded && !groups.length ? (
          <Text size="sm" c="dimmed" p="xs">
            {t('CHAT.NO_CHATS')}
          </Text>
        ) : null}
        <ScrollArea style={{ flex: 1 }}>
          <nav aria-label={t('CHAT.LIST')}>
            {groups.map((group) => (
              <UnstyledButton
                key={group.code}
                component={Link}
                to={toMessageGroup(group.code)}
                display="block"
                px="xs"
                py={8}
                w="100%"
                bg={group.code === activeCode ? 'var(--mantine-primary-color-light)' : undefined}
                aria-current={group.code === activeCode ? 'page' : undefined}
                data-testid={`chat-list-item-${group.code}`}
                data-unread={group.unread}
              >
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Box miw={0} style={{ flex: 1 }}>
                    <GroupName group={group} meCode={me} />
                    <LastMessage group={group} />
                  </Box>
                  {group.unread > 0 ? (
                    <Badge size="sm" circle={group.unread < 10} data-testid="chat-list-unread">
                      {group.unread}
                    </Badge>
                  ) : null}
                </Group>
              </UnstyledButton>
            ))}
          </nav>
        </ScrollArea>
        <Box p="xs">
          <Button component={Link} to={paths.messageNew} variant="light" fullWidth size="xs">
            {t('CHAT.NEW')}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
