import { Badge, Group, NavLink, type NavLinkProps, ScrollArea } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, matchPath, useLocation } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { useGuardOutcome } from '@/app/guards/useGuard';
import { chatStore } from '@/features/chat/chat.store';
import { paths } from '@/routes/paths';
import { MENU_ITEMS, type MenuItem, type MenuItemState, visibleMenuItems } from './menu-items';

const STATE_COLORS: Record<Exclude<MenuItemState, 'stable'>, string> = { beta: 'yellow', alfa: 'red' };

function StateBadge({ state }: { state?: MenuItemState }) {
  const { t } = useTranslation();
  if (!state || state === 'stable') return null;
  return (
    <Badge size="xs" variant="light" color={STATE_COLORS[state]}>
      {state === 'beta' ? t('MENU.STATE_BETA') : t('MENU.STATE_ALFA')}
    </Badge>
  );
}

/** The messages entry's unread count, driven by unread:count pushes (polled only while the socket is down). */
function UnreadBadge() {
  const { t } = useTranslation();
  const { total } = useSnapshot(chatStore).unread;
  if (total <= 0) return null;
  return (
    <Badge size="sm" color="red" circle={total < 10} aria-label={t('CHAT.UNREAD', { count: total })} data-testid="menu-unread-badge">
      {total > 99 ? '99+' : total}
    </Badge>
  );
}

/**
 * An entry with children: its chevron turns when it opens, its state badge does not (NavLink would turn
 * the whole right section, badge and all).
 */
function ParentNavLink({
  common,
  state,
  defaultOpened,
  children,
}: {
  common: NavLinkProps & Record<`data-${string}`, unknown>;
  state?: MenuItemState;
  defaultOpened: boolean;
  children: ReactNode;
}) {
  const [opened, setOpened] = useState(defaultOpened);
  return (
    <NavLink
      {...common}
      opened={opened}
      onChange={setOpened}
      active={false}
      childrenOffset={28}
      disableRightSectionRotation
      rightSection={
        <Group gap={4} wrap="nowrap">
          <StateBadge state={state} />
          <IconChevronRight size={14} style={{ transform: opened ? 'rotate(90deg)' : 'none', transition: 'transform 150ms ease' }} aria-hidden />
        </Group>
      }
      data-opened={opened}
    >
      {children}
    </NavLink>
  );
}

const isExact = (path: string, pathname: string) => matchPath({ path, end: true }, pathname) !== null;
const isWithin = (path: string, pathname: string) => path !== '/' && (pathname === path || pathname.startsWith(`${path}/`));

/** The shell's side menu: nested entries with icons, active highlight and state badges. */
export function SideMenu({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const outcomeOf = useGuardOutcome();
  const items = visibleMenuItems(MENU_ITEMS, (path) => outcomeOf(path) === 'allow');

  const renderItem = (item: MenuItem, depth: number) => {
    const Icon = item.icon;
    const common = {
      label: t(item.label),
      leftSection: depth === 0 ? <Icon size={18} stroke={1.6} /> : undefined,
      rightSection:
        item.path === paths.messages ? (
          <Group gap={4} wrap="nowrap">
            <UnreadBadge />
            <StateBadge state={item.state} />
          </Group>
        ) : (
          <StateBadge state={item.state} />
        ),
      'data-state': item.state ?? 'stable',
      'data-path': item.path,
    };
    if (item.children?.length) {
      return (
        <ParentNavLink key={`${item.path}-group`} common={common} state={item.state} defaultOpened={isWithin(item.path, pathname)}>
          {item.children.map((child) => renderItem(child, depth + 1))}
        </ParentNavLink>
      );
    }
    return <NavLink key={item.path} {...common} component={Link} to={item.path} active={isExact(item.path, pathname)} onClick={onNavigate} />;
  };

  return (
    <ScrollArea h="100%" type="scroll" data-testid="side-menu">
      <nav aria-label={t('SHELL.MENU')}>{items.map((item) => renderItem(item, 0))}</nav>
    </ScrollArea>
  );
}
