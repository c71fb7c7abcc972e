/**
 * Sends Web Push notifications ("needs you", "turn finished") to every subscribed browser.
 * The domain calls `notify()` and never waits on it: delivery is fire-and-forget, failures are
 * logged at debug, and subscriptions the push service reports gone (404/410) are dropped.
 * The service worker decides whether to show it (not when the page is in front, web/public/sw.js).
 */
import type { Agent } from 'node:https';
import webpush from 'web-push';
import type { Logger } from '../logger.js';
import { pushContent, type PushMachine, type WaitingInteraction } from './push-text.js';
import { PushSubscriptionStore, type PushSubscriptionJson } from './subscription-store.js';
import { loadOrCreateVapidKeys } from './vapid-keys.js';

/** What a notification is about. */
export type PushKind = 'needs_you' | 'turn_finished';

/** The payload the service worker reads (web/public/sw.js). */
export interface PushPayload {
  kind: PushKind;
  sessionId: string;
  title: string;
  body: string;
  /** Deep link the notification opens (push-text.ts); the service worker falls back to the session. */
  url?: string;
  tag?: string;
  requireInteraction?: boolean;
  /** The machine that sends it (issue 18): the app names it and routes by its id. */
  hub?: PushMachine;
}

/** The narrow port the domain depends on. */
export interface PushPort {
  notify(kind: PushKind, sessionId: string, title: string, waiting?: WaitingInteraction): void;
}

export interface PushNotifierOptions {
  stateDir: string;
  logger: Logger;
  /** Max stored subscriptions (LIMITS.pushSubscriptionsMax). */
  maxSubscriptions: number;
  /** VAPID `sub` claim: the hub's public URL or a mailto: (RFC 8292 §2.1). */
  subject?: string;
  /** Seconds a push service may hold an undelivered message. */
  ttlSeconds?: number;
  /** HTTPS agent for push-service requests (a private CA, e.g. behind a corporate proxy). */
  agent?: Agent;
  /** This hub's id and name, named in every payload and in its deep link (issue 18). */
  hub?: PushMachine;
}

const DEFAULT_TTL_S = 3600;

export class PushNotifier implements PushPort {
  readonly publicKey: string;
  readonly subscriptions: PushSubscriptionStore;
  private readonly privateKey: string;
  private readonly subject: string;
  private readonly ttl: number;
  private readonly log: Logger;
  private readonly agent: Agent | undefined;
  private readonly hub: PushMachine | undefined;

  constructor(opts: PushNotifierOptions) {
    const keys = loadOrCreateVapidKeys(opts.stateDir);
    this.publicKey = keys.publicKey;
    this.privateKey = keys.privateKey;
    // web-push requires an https: or mailto: subject; a loopback hub has neither.
    this.subject =
      opts.subject?.startsWith('https://') || opts.subject?.startsWith('mailto:') ? opts.subject : 'mailto:zcode-hub@localhost';
    this.ttl = opts.ttlSeconds ?? DEFAULT_TTL_S;
    this.subscriptions = new PushSubscriptionStore(opts.stateDir, opts.maxSubscriptions);
    this.log = opts.logger.child({ component: 'push' });
    this.agent = opts.agent;
    this.hub = opts.hub ? { hubId: opts.hub.hubId, name: opts.hub.name } : undefined;
  }

  /** Fire-and-forget: sends to every subscription without blocking the caller. */
  notify(kind: PushKind, sessionId: string, title: string, waiting?: WaitingInteraction): void {
    const hub = this.hub;
    void this.send({ kind, sessionId, ...pushContent(kind, sessionId, title, waiting, hub), ...(hub ? { hub } : {}) });
  }

  /** Sends one payload to every subscription; resolves with the number delivered. */
  async send(payload: PushPayload): Promise<number> {
    const subs = this.subscriptions.list();
    const text = JSON.stringify(payload);
    const results = await Promise.all(subs.map((s) => this.sendOne(s, text)));
    return results.filter(Boolean).length;
  }

  private async sendOne(sub: PushSubscriptionJson, text: string): Promise<boolean> {
    try {
      await webpush.sendNotification({ endpoint: sub.endpoint, keys: sub.keys }, text, {
        vapidDetails: { subject: this.subject, publicKey: this.publicKey, privateKey: this.privateKey },
        TTL: this.ttl,
        urgency: 'high',
        ...(this.agent ? { agent: this.agent } : {}),
      });
      return true;
    } catch (err) {
      const status = (err as { statusCode?: number }).statusCode;
      if (status === 404 || status === 410) this.subscriptions.remove(sub.endpoint);
      this.log.debug({ status }, 'push delivery failed');
      return false;
    }
  }
}
