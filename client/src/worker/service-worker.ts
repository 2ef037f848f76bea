import { notify } from '@/components/notifications/notify';
import { t } from '@/i18n/i18n';
import { registerPush } from './push';

/** How long to wait before retrying a message to a worker that is not active yet. */
export const WORKER_RETRY_MS = 100;

let registration: ServiceWorkerRegistration | null = null;
let prompted = false;
let reloading = false;

/** Posts to the active worker, retrying every 100 ms until one is active (up to 50 tries). */
export function postToWorker(message: object, tries = 50): void {
  const target = registration?.active;
  if (target) target.postMessage(message);
  else if (tries > 0) setTimeout(() => postToWorker(message, tries - 1), WORKER_RETRY_MS);
}

/** Asks once whether to switch to the new version; yes sends 'upgrade' to the waiting worker. */
async function offerUpgrade(waiting: ServiceWorker): Promise<void> {
  if (prompted) return;
  prompted = true;
  if (await notify.confirm(t('WORKER.UPDATE_READY'))) waiting.postMessage({ type: 'upgrade' });
}

function watchForUpdates(reg: ServiceWorkerRegistration): void {
  if (reg.waiting && navigator.serviceWorker.controller) void offerUpgrade(reg.waiting);
  reg.addEventListener('updatefound', () => {
    const installing = reg.installing;
    installing?.addEventListener('statechange', () => {
      // Installed while a controller exists: a new version is waiting.
      if (installing.state === 'installed' && navigator.serviceWorker.controller && reg.waiting) void offerUpgrade(reg.waiting);
    });
  });
  // The first worker taking control of a fresh page is no upgrade: only a replaced controller reloads.
  const hadController = Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (reloading || !hadController) return;
    reloading = true;
    window.location.reload();
  });
}

/** Registers /sw.js in production builds; any failure is silent (the app works without it). */
export async function registerServiceWorker(): Promise<ServiceWorkerRegistration | null> {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return null;
  try {
    registration = await navigator.serviceWorker.register('/sw.js');
    watchForUpdates(registration);
    return registration;
  } catch {
    return null;
  }
}

/** Tells the worker who is logged in; for a user, asks for notifications and registers push. */
export function workerUserChanged(token: string | null, userCode: string | null): void {
  if (!registration) return;
  postToWorker({ type: 'user', token, userCode });
  if (token && userCode) void registerPush(registration);
}

export function workerLanguageChanged(language: string): void {
  if (!registration) return;
  postToWorker({ type: 'language', language, texts: { defaultTitle: t('WORKER.NOTIFICATION_TITLE') } });
}
