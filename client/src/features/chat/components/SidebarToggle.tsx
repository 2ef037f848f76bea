import { ActionIcon, Tooltip } from '@mantine/core';
import { IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { menuModeFor } from '@/features/shell/menu-mode';
import { useViewportWidth } from '@/features/shell/useViewportWidth';
import { chatSidebarState, chatSidebarStore, toggleChatSidebar } from '../chat-sidebar.store';

/** The navbar's hide/show chat list action. */
export function SidebarToggle({ hasChat = true }: { hasChat?: boolean }) {
  const { t } = useTranslation();
  const mode = menuModeFor(useViewportWidth());
  const opened = useSnapshot(chatSidebarStore);
  const shown = chatSidebarState(mode, opened, hasChat) !== 'closed';
  const label = shown ? t('CHAT_SCREEN.HIDE_LIST') : t('CHAT_SCREEN.SHOW_LIST');
  return (
    <Tooltip label={label}>
      <ActionIcon
        variant="subtle"
        onClick={() => toggleChatSidebar(mode)}
        aria-label={label}
        aria-expanded={shown}
        aria-controls="chat-sidebar"
        disabled={mode === 'over' && !hasChat}
        data-testid="chat-sidebar-toggle"
      >
        {shown ? <IconLayoutSidebarLeftCollapse size={18} /> : <IconLayoutSidebarLeftExpand size={18} />}
      </ActionIcon>
    </Tooltip>
  );
}
