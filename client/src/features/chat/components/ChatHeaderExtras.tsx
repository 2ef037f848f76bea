import { ActionIcon, Tooltip } from '@mantine/core';
import { IconList, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '@/routes/paths';
import { SidebarToggle } from './SidebarToggle';

/** The rest of the chat's navbar icons: chat list, hide/show the list and new chat (the moderated badge sits by the name). */
export function ChatHeaderExtras() {
  const { t } = useTranslation();
  return (
    <>
      <Tooltip label={t('CHAT_SCREEN.ALL_CHATS')}>
        <ActionIcon component={Link} to={paths.messages} variant="subtle" aria-label={t('CHAT_SCREEN.ALL_CHATS')} data-testid="chat-open-list">
          <IconList size={18} />
        </ActionIcon>
      </Tooltip>
      <SidebarToggle />
      <Tooltip label={t('CHAT.NEW')}>
        <ActionIcon component={Link} to={paths.messageNew} variant="subtle" aria-label={t('CHAT.NEW')} data-testid="chat-open-new">
          <IconPlus size={18} />
        </ActionIcon>
      </Tooltip>
    </>
  );
}
