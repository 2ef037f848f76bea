import { act, screen } from '@testing-library/react';
import { clearResponseCache, configureHttp } from '@/api/http';
import { resetChat } from '@/features/chat/chat.store';
import { sessionStore } from '@/features/session/session.store';
import { realtimeStore } from '@/realtime/connection';
import { ADA, BOB, chatGroup, storedMessage } from '../../../jest/chat-fixtures';
import { renderRoutes } from '../../../jest/render';
import { WATCH_RETRY_MS } from './watch-room';
import { WatchRoomPage } from './WatchRoomPage';

/** The moderator's socket: acknowledgements come from `withAck`. */
const mockSocket = {
  on: () => mockSocket,
  off: () => mockSocket,
  emit: jest.fn(),
  withAck: jest.fn<Promise<unknown>, [string, unknown]>(),
  timeout: () => ({ emitWithAck: (event: string, payload: unknown) => mockSocket.withAck(event, payload) }),
};
jest.mock('@/realtime/RealtimeConnection', () => ({
  realtimeConnection: () => ({ connect: () => mockSocket, socket: mockSocket }),
}));

type Route = (body: Record<string, unknown> | undefined) => [number, unknown];
let routes: Record<string, Route> = {};
const calls: { key: string; body: Record<string, unknown> | undefined }[] = [];
const fetchMock = jest.fn(async (url: string, init: { method: string; body?: string }) => {
  const key = `${init.method} ${new URL(url, 'http://x').pathname}`;
  const body = init.body ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
  calls.push({ key, body });
  const [status, answer] = routes[key]?.(body) ?? [404, { code: 404, message: 'SHARED.ERROR.NOT_FOUND' }];
  return { status, ok: status < 400, headers: { get: () => 'application/json' }, text: async () => JSON.stringify(answer) };
});
const messageReads = () => calls.filter((c) => c.key === 'POST /api/message/groups/G_one/messages');
const settle = () =>
  act(async () => {
    for (let i = 0; i < 30; i++) await Promise.resolve();
  });

const MODERATOR = { code: 'U_mod', name: 'Mo', surname: 'Derator', avatar: null };

beforeEach(() => {
  resetChat();
  calls.length = 0;
  mockSocket.withAck.mockReset();
  routes = {
    'GET /api/message/groups/G_one': () => [200, chatGroup('G_one', { lastSeq: 1 }, [ADA, BOB])],
    'POST /api/message/groups/G_one/messages': () => [200, { messages: [storedMessage(1)], mayLoadOlder: false, mayLoadNewer: false }],
  };
  sessionStore.token = 'T';
  sessionStore.user = { ...MODERATOR, type: 1, country: null, lang: 'eng', timezone: null, jobIds: [], away: 0 };
  Object.assign(globalThis, { fetch: fetchMock });
  clearResponseCache();
  configureHttp({ getToken: () => 'T', onError: () => undefined });
});
afterEach(() => {
  realtimeStore.status = 'idle';
});

describe('WatchRoomPage', () => {
  it('reads no message while the room is not watched live, and reads them once the watch is', async () => {
    realtimeStore.status = 'disconnected';
    mockSocket.withAck.mockResolvedValue({ ok: true });
    renderRoutes([{ path: '/admin/rooms/:groupId', element: <WatchRoomPage /> }], '/admin/rooms/G_one');
    await settle();
    expect(screen.getByTestId('moderation-watch-room')).toHaveAttribute('data-watch', 'offline');
    expect(screen.getByTestId('moderation-watch-to-read')).toBeInTheDocument();
    expect(messageReads()).toHaveLength(0);

    await act(async () => void (realtimeStore.status = 'connected'));
    await settle();
    expect(mockSocket.withAck).toHaveBeenCalledWith('room:watch', { groupCode: 'G_one' });
    expect(screen.getByTestId('moderation-watch-room')).toHaveAttribute('data-watch', 'live');
    expect(messageReads()).toHaveLength(1);
    expect(screen.getAllByTestId('chat-message-text').map((el) => el.textContent)).toEqual(['message 1']);
  });

  it('asks again when room:watch came too fast (429), rather than calling it refused', async () => {
    jest.useFakeTimers();
    try {
      realtimeStore.status = 'connected';
      mockSocket.withAck.mockResolvedValueOnce({ ok: false, error: { code: 429, message: 'SHARED.ERROR.TOO_MANY_REQUESTS' } }).mockResolvedValue({ ok: true });
      renderRoutes([{ path: '/admin/rooms/:groupId', element: <WatchRoomPage /> }], '/admin/rooms/G_one');
      await settle();
      expect(screen.getByTestId('moderation-watch-room')).toHaveAttribute('data-watch', 'starting');
      await act(async () => void (await jest.advanceTimersByTimeAsync(WATCH_RETRY_MS)));
      await settle();
      expect(screen.getByTestId('moderation-watch-room')).toHaveAttribute('data-watch', 'live');
      expect(messageReads()).toHaveLength(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('reads nothing when the watch is refused', async () => {
    realtimeStore.status = 'connected';
    mockSocket.withAck.mockResolvedValue({ ok: false, error: { code: 403, message: 'SHARED.ERROR.FORBIDDEN' } });
    renderRoutes([{ path: '/admin/rooms/:groupId', element: <WatchRoomPage /> }], '/admin/rooms/G_one');
    await settle();
    expect(screen.getByTestId('moderation-watch-room')).toHaveAttribute('data-watch', 'refused');
    expect(messageReads()).toHaveLength(0);
  });
});
