/**
 * Web Push subscription (where the browser allows it: a secure context with a service worker
 * and PushManager). Falls back silently everywhere else.
 */
import { api, type ApiFn } from './net/rest.js';
import { str, rec } from './wire.js';

export type PushSupport = 'unsupported' | 'denied' | 'default' | 'granted';

/** What this browser allows right now. */
export function pushSupport(): PushSupport {
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window) || !window.isSecureContext)
    return 'unsupported';
  return Notification.permission;
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4);
  const raw = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/**
 * The service-worker scope of another machine's notifications. A push subscription belongs to
 * one registration and one VAPID key, and every hub has its own key, so each machine gets its
 * own registration of the same sw.js; the worker reads the machine from its scope and opens
 * `/m/<hubId>/s/<sessionId>`.
 */
export function machineScope(hubId: string): string {
  return `/m/${encodeURIComponent(hubId)}/`;
}

/** Resolves once a registration has an active worker (pushManager.subscribe needs one). */
function activeOf(reg: ServiceWorkerRegistration): Promise<ServiceWorkerRegistration> {
  if (reg.active) return Promise.resolve(reg);
  return new Promise((resolve) => {
    const sw = reg.installing ?? reg.waiting;
    sw?.addEventListener('statechange', () => {
      if (sw.state === 'activated') resolve(reg);
    });
  });
}

/** Subscribes this phone to one hub's notifications: `hubApi` is that hub's REST, `reg` its registration. */
async function subscribeWith(reg: ServiceWorkerRegistration, hubApi: ApiFn): Promise<PushSupport> {
  let sub = await reg.pushManager.getSubscription();
  if (!sub) {
    const { body } = await hubApi('/push/vapid-public-key');
    const key = str(rec(body)?.['publicKey']);
    if (!key) return 'unsupported';
    sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  }
  await hubApi('/push/subscriptions', { method: 'POST', body: sub.toJSON() });
  return 'granted';
}

/** Another machine's notifications, once permission is granted (never asks by itself). */
export async function enableMachinePush(hubId: string, hubApi: ApiFn): Promise<PushSupport> {
  const support = pushSupport();
  if (support !== 'granted') return support;
  const reg = await activeOf(await navigator.serviceWorker.register('/sw.js', { scope: machineScope(hubId) }));
  return subscribeWith(reg, hubApi);
}

/** Drops a removed machine's registration (and with it its subscription). */
export async function disableMachinePush(hubId: string): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  const reg = await navigator.serviceWorker.getRegistration(machineScope(hubId));
  if (reg && new URL(reg.scope).pathname === machineScope(hubId)) await reg.unregister();
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
  // Each machine on its own: one that fails does not keep the others from notifying.
  for (const [hubId, hubApi] of machinePushTargets()) void enableMachinePush(hubId, hubApi).catch(() => undefined);
  const reg = await navigator.serviceWorker.ready;
  return subscribeWith(reg, api);
}

let machinePushTargets: () => Array<[string, ApiFn]> = () => [];

/** Where "enable notifications" also subscribes: the machines connected now (machines/registry.ts). */
export function setMachinePushTargets(fn: () => Array<[string, ApiFn]>): void {
  machinePushTargets = fn;
}
