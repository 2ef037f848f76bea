import { AppShell, Drawer } from '@mantine/core';
import { Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { Spinner } from '@/components/loaders/loaders';
import { MessageToasts } from '@/features/chat/MessageToasts';
import { realtimeStore } from '@/realtime/connection';
import { paths } from '@/routes/paths';
import { MENU_WIDTH, menuModeFor, readMenuOpened, writeMenuOpened } from './menu-mode';
import { SideMenu } from './SideMenu';
import { Toolbar } from './Toolbar';
import { useViewportWidth } from './useViewportWidth';

export const TOOLBAR_HEIGHT = 56;

/** The layout every page sits in: toolbar on top, the side menu as a bar or (≤ 769 px) an overlay. */
export function Shell() {
  const mode = menuModeFor(useViewportWidth());
  const { pathname } = useLocation();
  const socket = useSnapshot(realtimeStore).status;
  // On the sign-in pages the overlay would cover the form (it holds nothing there a visitor needs first).
  const coversForm = mode === 'over' && pathname.startsWith(paths.auth);
  const [opened, setOpenedState] = useState(() => readMenuOpened(mode) && !coversForm);
  useEffect(() => setOpenedState(readMenuOpened(mode) && !coversForm), [mode, coversForm]);

  const setOpened = (value: boolean) => {
    setOpenedState(value);
    writeMenuOpened(mode, value);
  };

  return (
    <AppShell
      header={{ height: TOOLBAR_HEIGHT }}
      navbar={mode === 'bar' ? { width: MENU_WIDTH, breakpoint: 'xs', collapsed: { desktop: !opened, mobile: !opened } } : undefined}
      padding="md"
      data-testid="shell"
      data-menu-mode={mode}
      data-menu-opened={opened}
      data-socket={socket}
    >
      <AppShell.Header>
        <Toolbar menuOpened={opened} onToggleMenu={() => setOpened(!opened)} />
      </AppShell.Header>
      {mode === 'bar' ? (
        <AppShell.Navbar p={4}>
          <SideMenu />
        </AppShell.Navbar>
      ) : (
        <Drawer opened={opened} onClose={() => setOpened(false)} size={MENU_WIDTH} padding={4} withCloseButton={false} data-testid="menu-overlay">
          <SideMenu onNavigate={() => setOpened(false)} />
        </Drawer>
      )}
      <MessageToasts />
      <AppShell.Main>
        <Suspense fallback={<Spinner />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
