import { Center, Group, Stack, Text } from '@mantine/core';
import { IconMessages } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { ChatSidebar } from './components/ChatSidebar';
import { Conversation } from './components/Conversation';

function SelectChat() {
  const { t } = useTranslation();
  usePageHeader(t('MENU.MESSAGES'));
  return (
    <Center style={{ flex: 1 }} data-testid="chat-select">
      <Stack align="center" gap="xs">
        <IconMessages size={48} stroke={1.2} />
        <Text c="dimmed">{t('CHAT.SELECT_CHAT')}</Text>
      </Stack>
    </Center>
  );
}

/** /messages (the list and a 'select chat' prompt) and /messages/{groupId} (the list and the chat). */
export function ChatPage() {
  const { groupId } = useParams();
  return (
    // The shell's main area minus its padding: the list and the chat scroll on their own.
    <Group h="calc(100dvh - 56px - 2 * var(--mantine-spacing-md))" gap={0} wrap="nowrap" align="stretch" data-testid="chat-page">
      <ChatSidebar activeCode={groupId ?? null} />
      {groupId ? <Conversation key={groupId} code={groupId} /> : <SelectChat />}
    </Group>
  );
}
