import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';

type Listener = (event: object) => void;

/** client/public/sw.js in a context of its own, with the parts of a service worker's `self` it uses. */
function loadWorker(options: { windows: object[]; badge: boolean }) {
  const listeners = new Map<string, Listener>();
  const setAppBadge = jest.fn(async () => undefined);
  const showNotification = jest.fn(async () => undefined);
  const self = {
    addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
    registration: { showNotification },
    clients: { matchAll: jest.fn(async () => options.windows), claim: async () => undefined },
    navigator: options.badge ? { setAppBadge } : {},
    location: { origin: 'https://parley.test' },
  };
  runInNewContext(readFileSync(join(__dirname, '../../public/sw.js'), 'utf8'), { self, URL, Promise });
  const push = async (payload: object) => {
    const waits: Promise<unknown>[] = [];
    listeners.get('push')!({ data: { json: () => payload, text: () => JSON.stringify(payload) }, waitUntil: (p: Promise<unknown>) => waits.push(p) });
    await Promise.all(waits);
  };
  return { push, setAppBadge, showNotification };
}

describe('service worker: app badge on push', () => {
  const payload = { title: 'Ann', body: 'Hello', url: '/messages/abc', tag: 'abc' };

  it('flags the app icon when a push arrives and no page of the app is open', async () => {
    const sw = loadWorker({ windows: [], badge: true });
    await sw.push(payload);
    expect(sw.showNotification).toHaveBeenCalledWith('Ann', expect.objectContaining({ body: 'Hello', tag: 'abc' }));
    expect(sw.setAppBadge).toHaveBeenCalledWith();
  });

  it('leaves the badge to an open page, which keeps it at the unread total and clears it once it is read', async () => {
    const sw = loadWorker({ windows: [{ url: 'https://parley.test/messages' }], badge: true });
    await sw.push(payload);
    expect(sw.showNotification).toHaveBeenCalled();
    expect(sw.setAppBadge).not.toHaveBeenCalled();
  });

  it('still shows the notification where the platform has no badge', async () => {
    const sw = loadWorker({ windows: [], badge: false });
    await sw.push(payload);
    expect(sw.showNotification).toHaveBeenCalled();
  });
});
