/**
 * Web Push subscription (where the browser allows it: a secure context with a service worker
 * and PushManager). Falls back silently everywhere else.
 */
import { api } from './net/rest.js';
import { str, rec } from './wire.js';

export type PushSupport = 'unsupported' | 'denied' | 'default' | 'granted';

/** What this browser allows right now. */
export function pushSupport(): PushSupport {
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window) || !window.isSecureContext) return 'unsupported';
  return Notification.permission;
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4);
  const raw = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/** Asks permission (when `ask`), subscribes and registers the subscription with the hub. */
export async function enablePush(ask: boolean): Promise<PushSupport> {
  let support = pushSupport();
  if (support === 'unsupported' || support === 'denied') return support;
  if (support === 'default') {
    if (!ask) return support;
    support = await Notification.requestPermission();
    if (support !== 'granted') return support;
  }
  const reg = await navigator.serviceWorker.ready;
  let sub = await reg.pushManager.getSubscription();
  if (!sub) {
    const { body } = await api('/push/vapid-public-key');
    const key = str(rec(body)?.['publicKey']);
    if (!key) return 'unsupported';
    sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  }
  await api('/push/subscriptions', { method: 'POST', body: sub.toJSON() });
  return 'granted';
}
