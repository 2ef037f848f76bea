import { Box, Center, Group, Stack, Text } from '@mantine/core';
import { IconMessages } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { menuModeFor } from '@/features/shell/menu-mode';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { useViewportWidth } from '@/features/shell/useViewportWidth';
import { ConnectionBanner } from '@/realtime/ConnectionBanner';
import { chatSidebarState, chatSidebarStore, closeChatSidebarOverlay } from './chat-sidebar.store';
import { ChatSidebar } from './components/ChatSidebar';
import { Conversation } from './components/Conversation';
import { GroupSettings } from './components/GroupSettings';
import { NewChat } from './components/NewChat';
import { Participants } from './components/Participants';
import { SidebarToggle } from './components/SidebarToggle';

function SelectChat() {
  const { t } = useTranslation();
  usePageHeader(t('MENU.MESSAGES'));
  return (
    <Center style={{ flex: 1 }} data-testid="chat-select">
      <Stack align="center" gap="xs">
        <IconMessages size={48} stroke={1.2} />
        <Text c="dimmed">{t('CHAT.SELECT_CHAT')}</Text>
        <SidebarToggle hasChat={false} />
      </Stack>
    </Center>
  );
}

export type ChatView = 'chat' | 'participants' | 'settings' | 'new';

function Content({ view, groupId }: { view: ChatView; groupId: string | undefined }) {
  if (view === 'new') return <NewChat />;
  if (!groupId) return <SelectChat />;
  if (view === 'participants') return <Participants key={groupId} code={groupId} />;
  if (view === 'settings') return <GroupSettings key={groupId} code={groupId} />;
  return <Conversation key={groupId} code={groupId} />;
}

/**
 * The chat list beside: a 'select chat' prompt (/messages), the chat (/messages/{groupId}), its participants
 * or settings (/messages/{groupId}/participants, /settings), or the new chat form (/messages/new/create).
 * On narrow screens the list lies over the chat when shown.
 */
export function ChatPage({ view = 'chat' }: { view?: ChatView }) {
  const { groupId } = useParams();
  const mode = menuModeFor(useViewportWidth());
  const opened = useSnapshot(chatSidebarStore);
  const hasChat = Boolean(groupId) || view === 'new';
  const state = chatSidebarState(mode, opened, hasChat);

  // Another chat or page: the overlay has done its job.
  useEffect(() => closeChatSidebarOverlay(), [groupId, view]);

  return (
    // The shell's main area minus its padding: the list and the chat scroll on their own.
    <Group
      h="calc(100dvh - 56px - 2 * var(--mantine-spacing-md))"
      gap={0}
      wrap="nowrap"
      align="stretch"
      pos="relative"
      data-testid="chat-page"
      data-sidebar={state}
    >
      <ChatSidebar activeCode={groupId ?? null} state={state} onClose={hasChat ? closeChatSidebarOverlay : undefined} />
      <Box style={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }} h="100%">
        <ConnectionBanner />
        <Box style={{ flex: 1, minHeight: 0, display: 'flex' }}>
          <Content view={view} groupId={groupId} />
        </Box>
      </Box>
    </Group>
  );
}
