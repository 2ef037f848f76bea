import { http } from '@/api/http';

/** Web push needs the server's VAPID key as bytes. */
export function urlBase64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  const padded = `${base64}${'='.repeat((4 - (base64.length % 4)) % 4)}`.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

let publicKey: Promise<string> | null = null;

/** GET /api/User/WebPush/Config once a user is known, then cached for the page's life. */
function pushPublicKey(): Promise<string> {
  publicKey ??= http
    .get<string | { publicKey: string }>('/api/User/WebPush/Config', { cache: false, handleErrors: false })
    .then((body) => (typeof body === 'string' ? body : body.publicKey).trim())
    .catch((err: unknown) => {
      publicKey = null;
      throw err;
    });
  return publicKey;
}

/** Asks for permission (logged-in users only), subscribes, and registers the endpoint. Failures are only logged. */
export async function registerPush(registration: ServiceWorkerRegistration): Promise<void> {
  try {
    if (!('PushManager' in window) || !('Notification' in window)) return;
    const permission = Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
    if (permission !== 'granted') return;
    const key = await pushPublicKey();
    const subscription =
      (await registration.pushManager.getSubscription()) ??
      (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: urlBase64ToBytes(key) }));
    await http.post('/api/User/WebPush/Register', { endpoint: subscription.endpoint, ...subscription.toJSON() }, { handleErrors: false });
  } catch (err) {
    console.warn('push subscription failed', err);
  }
}
