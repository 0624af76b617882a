import type { trpc } from '../../trpc';

type Client = ReturnType<typeof trpc.useUtils>['client'];

/**
 * With notifications allowed, this browser also subscribes to Web Push (service worker /sw.js,
 * VAPID key from the server), so notifications reach it with no tab of the app open. Quietly does
 * nothing where push is unsupported or the push service refuses (headless browsers, no network).
 */
export async function ensurePushSubscription(client: Client): Promise<boolean> {
  if (typeof window === 'undefined' || !('serviceWorker' in navigator) || !('PushManager' in window) || Notification.permission !== 'granted') return false;
  try {
    const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    await navigator.serviceWorker.ready;
    let subscription = await registration.pushManager.getSubscription();
    if (!subscription) {
      const { publicKey } = await client.channels.pushKey.query();
      subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: fromBase64Url(publicKey) });
    }
    const json = subscription.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
    await client.channels.pushSubscribe.mutate({ endpoint: json.endpoint, keys: json.keys });
    return true;
  } catch {
    return false;
  }
}

function fromBase64Url(value: string): Uint8Array<ArrayBuffer> {
  const raw = atob(value.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}
