import { MantineProvider } from '@mantine/core';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, type Location, Route, Routes, useLocation } from 'react-router-dom';
import { FileAccessProvider } from '@/components/file-preview/file-access';
import { appFileAccess } from '@/features/files/file-access';

export interface RouteDef {
  path: string;
  element: ReactNode;
}

/** The router's current location, for assertions. */
export const current: { location: Location | null } = { location: null };

function LocationProbe() {
  current.location = useLocation();
  return null;
}

/**
 * Renders routes inside Mantine (test env: no transitions, no portals) and the app's file access at the given address.
 * A declarative MemoryRouter: jsdom lacks the Fetch API's Request that data routers need. The
 * jsdom address follows along, as the browser's would.
 */
export function renderRoutes(routes: RouteDef[], at: string) {
  window.history.replaceState({}, '', at);
  return render(
    <MantineProvider env="test">
      <FileAccessProvider access={appFileAccess}>
        <MemoryRouter initialEntries={[at]}>
          <LocationProbe />
          <Routes>
            {routes.map((r) => (
              <Route key={r.path} path={r.path} element={r.element} />
            ))}
          </Routes>
        </MemoryRouter>
      </FileAccessProvider>
    </MantineProvider>,
  );
}

export function renderWithMantine(ui: ReactNode) {
  return render(
    <MantineProvider env="test">
      <FileAccessProvider access={appFileAccess}>{ui}</FileAccessProvider>
    </MantineProvider>,
  );
}
