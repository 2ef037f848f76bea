import { createRealtimeConnection, isRealtimeConnected, realtimeStore } from './connection';

type Handler = (...args: unknown[]) => void;

function fakeSocket() {
  const handlers = new Map<string, Handler>();
  return {
    connected: false,
    handlers,
    on: jest.fn((event: string, handler: Handler) => handlers.set(event, handler)),
    emit: jest.fn(),
    connect: jest.fn(),
    disconnect: jest.fn(),
    removeAllListeners: jest.fn(),
    fire(event: string, ...args: unknown[]) {
      handlers.get(event)?.(...args);
    },
  };
}

function setup(refreshResult = true) {
  const socket = fakeSocket();
  let token = 'T1';
  const open = jest.fn((options: { auth: (cb: (data: object) => void) => void }) => {
    socketOptions = options;
    return socket as never;
  });
  let socketOptions: { auth: (cb: (data: object) => void) => void } | null = null;
  const refreshToken = jest.fn(async () => {
    token = 'T2';
    return refreshResult;
  });
  const connection = createRealtimeConnection({ getToken: () => token, refreshToken, open: open as never });
  return { socket, connection, open, refreshToken, authData: () => new Promise((r) => socketOptions?.auth(r)) };
}

describe('realtime connection', () => {
  it('opens one socket per tab, authenticated with the current token', async () => {
    const { connection, open, authData } = setup();
    const first = connection.connect();
    expect(connection.connect()).toBe(first);
    expect(open).toHaveBeenCalledTimes(1);
    expect(await authData()).toEqual({ token: 'T1' });
    connection.disconnect();
  });

  it('exposes connected and disconnected for the polling fallback', () => {
    const { connection, socket } = setup();
    connection.connect();
    expect(realtimeStore.status).toBe('connecting');
    socket.fire('connect');
    expect(isRealtimeConnected()).toBe(true);
    socket.fire('disconnect');
    expect(realtimeStore.status).toBe('disconnected');
    expect(isRealtimeConnected()).toBe(false);
    connection.disconnect();
    expect(realtimeStore.status).toBe('idle');
  });

  it('reconnects with a refreshed token when the handshake is refused', async () => {
    const { connection, socket, refreshToken, authData } = setup();
    connection.connect();
    socket.fire('connect_error', new Error('unauthorized'));
    await Promise.resolve();
    await Promise.resolve();
    expect(refreshToken).toHaveBeenCalledTimes(1);
    expect(socket.connect).toHaveBeenCalledTimes(1);
    expect(await authData()).toEqual({ token: 'T2' });
    connection.disconnect();
  });

  it('stays down when the refresh fails, and ignores other connection errors', async () => {
    const { connection, socket, refreshToken } = setup(false);
    connection.connect();
    socket.fire('connect_error', new Error('xhr poll error'));
    expect(refreshToken).not.toHaveBeenCalled();
    socket.fire('connect_error', new Error('unauthorized'));
    await Promise.resolve();
    await Promise.resolve();
    expect(socket.connect).not.toHaveBeenCalled();
    connection.disconnect();
  });

  it('hands a refreshed token to a live socket', () => {
    const { connection, socket } = setup();
    connection.connect();
    connection.updateToken('T9');
    expect(socket.emit).not.toHaveBeenCalled();
    socket.connected = true;
    connection.updateToken('T9');
    expect(socket.emit).toHaveBeenCalledWith('auth:refresh', { token: 'T9' }, expect.any(Function));
    connection.disconnect();
  });
});

describe('realtime connection after the server dropped it', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('connects again by itself, which socket.io does not do for a server-side disconnect', () => {
    const { connection, socket } = setup();
    connection.connect();
    socket.fire('connect');
    socket.fire('disconnect', 'io server disconnect');
    expect(realtimeStore.status).toBe('disconnected');
    jest.advanceTimersByTime(2_001);
    expect(socket.connect).toHaveBeenCalledTimes(1);
    // A network loss is left to socket.io's own reconnection.
    socket.fire('disconnect', 'transport close');
    jest.advanceTimersByTime(5_000);
    expect(socket.connect).toHaveBeenCalledTimes(1);
    connection.disconnect();
  });

  it('does not bring back a connection that was closed on purpose', () => {
    const { connection, socket } = setup();
    connection.connect();
    socket.fire('disconnect', 'io server disconnect');
    connection.disconnect();
    jest.advanceTimersByTime(2_001);
    expect(socket.connect).not.toHaveBeenCalled();
  });
});
