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

/**
 * On logout, while the token still works: the server forgets this browser's subscription for the user, so
 * their pushes stop reaching it (the next user to log in registers it for themselves). Never blocks logout
 * for long; failures are only logged.
 */
export async function unregisterPush(timeoutMs = 2000): Promise<void> {
  try {
    if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
    const work = (async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      const subscription = await registration?.pushManager?.getSubscription();
      if (subscription) await http.post('/api/User/WebPush/Unregister', { endpoint: subscription.endpoint }, { handleErrors: false });
    })();
    await Promise.race([work, new Promise((resolve) => setTimeout(resolve, timeoutMs))]);
  } catch (err) {
    console.warn('push unregistration failed', err);
  }
}
