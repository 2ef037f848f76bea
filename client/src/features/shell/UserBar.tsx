import { Button, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconLogin, IconLogout, IconUser } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { UserAvatar } from '@/components/user-avatar/UserAvatar';
import { logout } from '@/features/session/session.actions';
import { sessionStore } from '@/features/session/session.store';
import { paths, toUserProfile } from '@/routes/paths';

/** Profile and logout for a user; a login entry for guests. */
export function UserBar() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSnapshot(sessionStore);

  if (!user) {
    return (
      <Button component={Link} to={paths.auth} variant="light" size="xs" leftSection={<IconLogin size={16} />} data-testid="login-entry">
        {t('SHELL.LOGIN')}
      </Button>
    );
  }

  const handleLogout = async () => {
    await logout();
    navigate(paths.auth);
  };

  return (
    <Menu position="bottom-end" shadow="md" width={200}>
      <Menu.Target>
        <UnstyledButton data-testid="user-menu" aria-label={t('SHELL.USER_MENU')}>
          <Group gap="xs" wrap="nowrap">
            <UserAvatar name={user.name} surname={user.surname} url={user.avatar?.url} size="sm" />
            <Text size="sm" fw={500} visibleFrom="sm" maw={160} truncate>
              {user.name} {user.surname}
            </Text>
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to={toUserProfile(user.code)} leftSection={<IconUser size={16} />} data-testid="menu-profile">
          {t('SHELL.PROFILE')}
        </Menu.Item>
        <Menu.Item onClick={handleLogout} leftSection={<IconLogout size={16} />} color="red" data-testid="menu-logout">
          {t('SHELL.LOGOUT')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
