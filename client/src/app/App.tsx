import { useState } from 'react';
import { RouterProvider, createBrowserRouter } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { FullPageLoader } from '@/components/loaders/loaders';
import { sessionStore } from '@/features/session/session.store';
import { AppBadge } from '@/features/chat/AppBadge';
import { ChatOutbox } from '@/features/chat/ChatOutbox';
import { ChatRealtime } from '@/features/chat/ChatRealtime';
import { UnreadTitle } from '@/features/chat/UnreadTitle';
import { RealtimeConnection } from '@/realtime/RealtimeConnection';
import { ReportsRealtime } from '@/features/reports/ReportsRealtime';
import { ScreenRealtime } from '@/realtime/ScreenRealtime';
import { WorkerBridge } from '@/worker/WorkerBridge';
import { AppProviders } from './AppProviders';
import { routes } from './routes';

function SessionGate() {
  const { status } = useSnapshot(sessionStore);
  const [router] = useState(() => createBrowserRouter(routes));
  if (status === 'unchecked') return <FullPageLoader />;
  return (
    <>
      <RealtimeConnection />
      <ChatRealtime />
      <UnreadTitle />
      <AppBadge />
      <ScreenRealtime />
      <ReportsRealtime />
      <ChatOutbox />
      <WorkerBridge />
      <RouterProvider router={router} />
    </>
  );
}

/** The app: the full-page loader until the user check finishes, then the routed shell. */
export function App() {
  return (
    <AppProviders>
      <SessionGate />
    </AppProviders>
  );
}
