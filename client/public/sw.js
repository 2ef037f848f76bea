/* Parley's background worker: push notifications and their clicks. The page tells it who is logged in
   and in which language (with the translated notification texts); an upgrade waits for the page's word. */
let state = { token: null, userCode: null, language: 'eng', texts: { defaultTitle: 'Parley' } };

self.addEventListener('install', () => {
  // Waits for the page's 'upgrade' message, so a running tab is never switched under the user.
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('message', (event) => {
  const data = event.data || {};
  if (data.type === 'upgrade') self.skipWaiting();
  else if (data.type === 'user') state = { ...state, token: data.token || null, userCode: data.userCode || null };
  else if (data.type === 'language') state = { ...state, language: data.language, texts: { ...state.texts, ...(data.texts || {}) } };
});

self.addEventListener('push', (event) => {
  let payload;
  try {
    payload = event.data ? event.data.json() : {};
  } catch {
    payload = { body: event.data ? event.data.text() : '' };
  }
  const title = payload.title || state.texts.defaultTitle;
  event.waitUntil(
    Promise.all([
      self.registration.showNotification(title, {
        body: payload.body || '',
        tag: payload.tag || undefined,
        icon: '/assets/logo.svg',
        data: { url: payload.url || '/' },
      }),
      flagAppBadge(),
    ]),
  );
});

/* The app icon's badge. A running page keeps it at the unread total, and clears it once everything is read; with
   no page open, a push sets it as a flag (this worker does not know the total) until the page opens again. */
function flagAppBadge() {
  if (!self.navigator || typeof self.navigator.setAppBadge !== 'function') return Promise.resolve();
  return self.clients
    .matchAll({ type: 'window', includeUncontrolled: true })
    .then((windows) => (windows.length ? undefined : self.navigator.setAppBadge()))
    .catch(() => undefined);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || '/', self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => w.url === url) || windows[0];
      if (open) return open.focus().then((w) => (w && w.url !== url && 'navigate' in w ? w.navigate(url) : w));
      return self.clients.openWindow(url);
    }),
  );
});
