/*
 * Atende's service worker: shows Web Push notifications while no tab of the app is open (the
 * payload is { id, title, body, action } from modules/channels/push.ts) and opens their page on a
 * click. It handles no fetches: the app works exactly as without it.
 */
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: event.data ? event.data.text() : '' };
  }
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((tabs) => {
      // A visible tab already shows it in the app (and as a tab notification): no second one.
      if (tabs.some((t) => t.visibilityState === 'visible')) return undefined;
      return self.registration.showNotification(data.title || 'Atende', { body: data.body || '', tag: data.id, data: { action: data.action || '/i/recent' } });
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.action) || '/i/recent', self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((tabs) => {
      const tab = tabs.find((t) => t.url.startsWith(self.location.origin));
      if (tab) return tab.focus().then((t) => t && t.navigate(target));
      return self.clients.openWindow(target);
    }),
  );
});
