import { clearResponseCache, configureHttp } from '@/api/http';
import { loadRooms, openRooms } from './moderation.actions';
import { moderationStore } from './moderation.store';

const ROOM = {
  code: 'G_named',
  name: 'Ops',
  type: 1,
  messages: 3,
  lastMessageAt: '2026-01-01T00:00:00.000Z',
  participants: 2,
  connectedParticipants: 1,
  watched: false,
};
const UNNAMED = { ...ROOM, code: 'G_unnamed', name: null };
let roomsAnswer: [number, unknown] = [200, [ROOM, UNNAMED]];
const paths: string[] = [];
const fetchMock = jest.fn(async (url: string) => {
  const path = new URL(url, 'http://x').pathname;
  paths.push(path);
  const [status, body]: [number, unknown] =
    path === '/api/admin/rooms'
      ? roomsAnswer
      : path === '/api/message/groups/G_unnamed'
        ? [200, { code: 'G_unnamed', participants: [] }]
        : [404, { code: 404 }];
  return { status, ok: status < 400, headers: { get: () => 'application/json' }, text: async () => JSON.stringify(body) };
});

beforeEach(() => {
  paths.length = 0;
  roomsAnswer = [200, [ROOM, UNNAMED]];
  Object.assign(globalThis, { fetch: fetchMock });
  clearResponseCache();
  configureHttp({ getToken: () => 'T', onError: () => undefined });
});

describe('moderation actions', () => {
  it('opens on a fresh list and reads the group of each unnamed room only', async () => {
    moderationStore.rooms = [{ ...ROOM, code: 'G_someone_elses' }];
    const opening = openRooms();
    expect(moderationStore.rooms).toBeNull();
    await opening;
    expect(moderationStore.rooms?.map((r) => r.code)).toEqual(['G_named', 'G_unnamed']);
    expect(Object.keys(moderationStore.roomGroups)).toEqual(['G_unnamed']);
    expect(paths).toEqual(['/api/admin/rooms', '/api/message/groups/G_unnamed']);
  });

  it('keeps the rooms shown when a refresh fails, and says so', async () => {
    await openRooms();
    roomsAnswer = [500, { code: 500 }];
    await loadRooms();
    expect(moderationStore.roomsFailed).toBe(true);
    expect(moderationStore.rooms).toHaveLength(2);
  });
});
