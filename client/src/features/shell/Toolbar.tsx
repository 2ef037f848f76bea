import { ActionIcon, Burger, Group, Indicator, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { HEADER_MAX, SUBHEADER_MAX, truncate } from '@/components/format/text';
import { chatStore } from '@/features/chat/chat.store';
import { InstanceLogo } from '@/features/instance/InstanceLogo';
import { instanceStore } from '@/features/instance/instance.store';
import { SettingsMenu } from './SettingsMenu';
import { UserBar } from './UserBar';
import { toolbarStore } from './toolbar.store';

/** Menu toggle (with the unread count while the menu is closed), back button, logo, the page's header (40) and subheader (100), settings and the user bar. */
export function Toolbar({ menuOpened, onToggleMenu }: { menuOpened: boolean; onToggleMenu: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useLocation(); // re-render on navigation so the back button follows the history
  const { header, subheader } = useSnapshot(toolbarStore);
  const { current } = useSnapshot(instanceStore);
  const canGoBack = ((window.history.state as { idx?: number } | null)?.idx ?? 0) > 0;
  const title = header || current.name;
  const { total } = useSnapshot(chatStore).unread;
  // The messages entry's badge is out of sight while the menu is closed (a phone's overlay, a collapsed bar).
  const unreadOnToggle = !menuOpened && total > 0 ? total : 0;

  return (
    <Group h="100%" px="sm" justify="space-between" wrap="nowrap" gap="xs">
      <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
        <Indicator
          label={unreadOnToggle > 99 ? '99+' : unreadOnToggle}
          disabled={unreadOnToggle === 0}
          color="red"
          size={18}
          offset={4}
          zIndex={1}
          data-testid="menu-toggle-unread"
          data-count={unreadOnToggle}
        >
          <Burger
            opened={menuOpened}
            onClick={onToggleMenu}
            size="sm"
            aria-label={unreadOnToggle ? `${t('SHELL.MENU')} (${t('CHAT.UNREAD', { count: unreadOnToggle })})` : t('SHELL.MENU')}
            data-testid="menu-toggle"
          />
        </Indicator>
        <ActionIcon variant="subtle" size="lg" onClick={() => navigate(-1)} disabled={!canGoBack} aria-label={t('SHELL.BACK')} data-testid="back-button">
          <IconArrowLeft size={20} />
        </ActionIcon>
        <InstanceLogo size={28} />
        <div style={{ minWidth: 0 }}>
          <Text fw={600} size="md" lh={1.2} truncate="end" title={title} data-testid="toolbar-header">
            {truncate(title, HEADER_MAX)}
          </Text>
          {subheader && (
            <Text size="xs" c="dimmed" lh={1.2} truncate="end" title={subheader} data-testid="toolbar-subheader">
              {truncate(subheader, SUBHEADER_MAX)}
            </Text>
          )}
        </div>
      </Group>
      <Group gap="xs" wrap="nowrap">
        <SettingsMenu />
        <UserBar />
      </Group>
    </Group>
  );
}
