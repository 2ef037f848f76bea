import { waitFor } from '@testing-library/react';
import { clearResponseCache, configureHttp } from '@/api/http';
import type { ParleySocket } from './connection';
import {
  applyStatus,
  pollPresence,
  presenceAt,
  presenceSocketConnected,
  presenceStore,
  resetPresence,
  setPresenceSocket,
  watchPresence,
  watchedUsers,
  PRESENCE_RETRY_MS,
} from './presence.store';

type Watch = { userCodes: string[] };

/** A socket whose presence:watch answers with the given statuses (online, 0 minutes away). */
function fakeSocket() {
  const asked: string[][] = [];
  const socket = {
    timeout: () => socket,
    emitWithAck: jest.fn(async (_event: string, payload: Watch) => {
      asked.push(payload.userCodes);
      return { ok: true, statuses: payload.userCodes.map((userCode) => ({ userCode, online: true, lastActiveAt: null, away: 0, idleMs: 0 })) };
    }),
  };
  return { socket: socket as unknown as ParleySocket, asked };
}

const fetchMock = jest.fn(async (_url: string, init: { body?: string }) => {
  const { userIds } = JSON.parse(init.body ?? '{}') as { userIds: string[] };
  const answer = userIds.map((userCode) => ({ userCode, online: false, lastActiveAt: null, away: null, idleMs: null }));
  return { status: 200, ok: true, headers: { get: () => 'application/json' }, text: async () => JSON.stringify(answer) };
});

beforeEach(() => {
  resetPresence();
  fetchMock.mockClear();
  Object.assign(globalThis, { fetch: fetchMock });
  clearResponseCache();
  configureHttp({ getToken: () => 'T', onError: () => undefined });
});

describe('presence store', () => {
  it('counts the away minutes on from when the status was heard', () => {
    const heard = Date.parse('2026-01-01T12:00:00Z');
    applyStatus({ userCode: 'U1', online: true, lastActiveAt: null, away: 0, idleMs: 0 }, heard);
    const held = presenceStore.statuses.U1;
    expect(presenceAt(held, heard + 30_000)).toMatchObject({ state: 'available', color: 'green' });
    expect(presenceAt(held, heard + 5 * 60_000)).toMatchObject({ state: 'away', minutes: 5, color: 'yellow' });
    expect(presenceAt(held, heard + 61 * 60_000)).toMatchObject({ state: 'unavailable', color: 'red' });
    // A closed tab does not make anyone unavailable: the minutes do.
    applyStatus({ userCode: 'U2', online: false, lastActiveAt: null, away: 0, idleMs: 0 }, heard);
    expect(presenceAt(presenceStore.statuses.U2, heard)).toMatchObject({ state: 'available', online: false });
    expect(presenceAt(presenceStore.statuses.U2, heard + 2 * 60_000)).toMatchObject({ state: 'away', minutes: 2 });
    expect(presenceAt(undefined)).toBeNull();

    // One rounding: 50 s idle when heard, 70 s later is 2 minutes (two rounded-down values added made it 1).
    applyStatus({ userCode: 'U6', online: true, lastActiveAt: null, away: 0, idleMs: 50_000 }, heard);
    expect(presenceAt(presenceStore.statuses.U6, heard + 70_000)).toMatchObject({ state: 'away', minutes: 2 });
  });

  it('watches over the live socket, once per user, and again for everyone wanted after a reconnect', async () => {
    const { socket, asked } = fakeSocket();
    setPresenceSocket(() => socket);
    const release = watchPresence(['U1', 'U2', 'U1']);
    await waitFor(() => expect(presenceStore.statuses.U1?.online).toBe(true));
    expect(asked).toEqual([['U1', 'U2']]);

    // A second screen showing U1 asks for nothing new.
    const releaseOther = watchPresence(['U1']);
    // A turn of the event loop, for a request that should not be made.
    await new Promise((r) => setTimeout(r, 0));
    expect(asked).toHaveLength(1);

    release();
    expect(watchedUsers()).toEqual(['U1']);
    await presenceSocketConnected();
    expect(asked[1]).toEqual(['U1']);
    releaseOther();
    expect(watchedUsers()).toEqual([]);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('asks again a moment after the server says presence:watch came too fast (429)', async () => {
    jest.useFakeTimers();
    try {
      const asked: string[][] = [];
      let calls = 0;
      const socket = {
        timeout: () => socket,
        emitWithAck: jest.fn(async (_event: string, payload: Watch) => {
          asked.push(payload.userCodes);
          return ++calls === 1
            ? { ok: false, error: { code: 429, message: 'SHARED.ERROR.TOO_MANY_REQUESTS' } }
            : { ok: true, statuses: payload.userCodes.map((userCode) => ({ userCode, online: true, lastActiveAt: null, away: 0, idleMs: 0 })) };
        }),
      };
      setPresenceSocket(() => socket as unknown as ParleySocket);
      watchPresence(['U1']);
      await jest.advanceTimersByTimeAsync(0);
      expect(presenceStore.statuses.U1).toBeUndefined();
      await jest.advanceTimersByTimeAsync(PRESENCE_RETRY_MS);
      expect(asked).toEqual([['U1'], ['U1']]);
      expect(presenceStore.statuses.U1?.online).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });

  it('asks over REST while the socket is down, and polls the users still shown', async () => {
    setPresenceSocket(() => null);
    const release = watchPresence(['U3']);
    await waitFor(() => expect(presenceStore.statuses.U3).toBeDefined());
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(JSON.parse((fetchMock.mock.calls[0][1] as { body: string }).body)).toEqual({ userIds: ['U3'] });
    expect(presenceAt(presenceStore.statuses.U3)?.state).toBe('unavailable');
    await pollPresence();
    expect(fetchMock).toHaveBeenCalledTimes(2);
    release();
    await pollPresence();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('applies a pushed change over what the watch answered', async () => {
    const { socket } = fakeSocket();
    setPresenceSocket(() => socket);
    const release = watchPresence(['U4']);
    await waitFor(() => expect(presenceStore.statuses.U4).toBeDefined());
    applyStatus({ userCode: 'U4', online: false, lastActiveAt: '2026-01-01T12:00:00.000Z', away: 75, idleMs: 4500000 });
    expect(presenceAt(presenceStore.statuses.U4)?.state).toBe('unavailable');
    release();
  });
});

describe('presence store races', () => {
  it('keeps a push heard while a REST answer was on its way', async () => {
    setPresenceSocket(() => null);
    let answer: (v: unknown) => void = () => undefined;
    fetchMock.mockImplementationOnce(
      () =>
        new Promise((resolve) => {
          answer = resolve;
        }) as never,
    );
    const release = watchPresence(['U5']);
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    applyStatus({ userCode: 'U5', online: true, lastActiveAt: null, away: 0, idleMs: 0 });
    const stale = [{ userCode: 'U5', online: false, lastActiveAt: null, away: null, idleMs: null }];
    answer({ status: 200, ok: true, headers: { get: () => 'application/json' }, text: async () => JSON.stringify(stale) });
    // A moment for the stale answer to be read (and, rightly, not applied): nothing shows that it was.
    await new Promise((r) => setTimeout(r, 5));
    expect(presenceStore.statuses.U5?.online).toBe(true);
    release();
  });
});
