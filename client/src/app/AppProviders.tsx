import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { type ReactNode, useMemo } from 'react';
import { useSnapshot } from 'valtio';
import { FileAccessProvider } from '@/components/file-preview/file-access';
import { NOTIFICATION_FADE_MS, NOTIFICATION_TIMEOUT_MS } from '@/components/notifications/notify';
import { appFileAccess } from '@/features/files/file-access';
import { InstanceBranding } from '@/features/instance/InstanceBranding';
import { instanceStore } from '@/features/instance/instance.store';
import { effectiveTheme, preferencesStore } from '@/features/preferences/preferences.store';
import { buildTheme } from './theme';
import './notifications.css';

/** Mantine with the instance's colours and the chosen theme, notifications, branding and the kit's file access. */
export function AppProviders({ children }: { children: ReactNode }) {
  const preferences = useSnapshot(preferencesStore);
  const { current } = useSnapshot(instanceStore);
  const theme = useMemo(() => buildTheme({ color: current.color, accent: current.accent }), [current.color, current.accent]);
  return (
    <MantineProvider theme={theme} forceColorScheme={effectiveTheme(preferences)}>
      <Notifications position="top-right" autoClose={NOTIFICATION_TIMEOUT_MS} transitionDuration={NOTIFICATION_FADE_MS} limit={6} />
      <InstanceBranding />
      <FileAccessProvider access={appFileAccess}>{children}</FileAccessProvider>
    </MantineProvider>
  );
}
