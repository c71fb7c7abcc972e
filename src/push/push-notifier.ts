/**
 * Sends Web Push notifications ("needs you", "turn finished") to every subscribed browser.
 * The domain calls `notify()` and never waits on it: delivery is fire-and-forget, bounded by
 * a queue (`DeliveryQueue`) and a hard deadline per request (`push-delivery.ts`), failures are
 * logged at debug, and a subscription the push service reports gone (404/410), whose address
 * is not public any more, or that failed `limits.pushFailuresBeforeForget` times in a row is
 * forgotten. The service worker decides whether to show it (not when the page is in front,
 * web/public/sw.js).
 */
import type { Agent } from 'node:https';
import { LIMITS } from '../limits.js';
import type { Logger } from '../logger.js';
import { DeliveryQueue, DROPPED } from './delivery-queue.js';
import { deliver, type DeliveryOutcome } from './push-delivery.js';
import { pushContent, type PushMachine, type WaitingInteraction } from './push-text.js';
import { PushSubscriptionStore, type StoredSubscription } from './subscription-store.js';
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
  /** The machine that sends it: the app names it and routes by its id. */
  hub?: PushMachine;
}

/** The narrow port the domain depends on. */
export interface PushPort {
  notify(kind: PushKind, sessionId: string, title: string, waiting?: WaitingInteraction): void;
}

/** The limits push obeys (src/limits.ts); each defaults to LIMITS. */
export type PushLimits = Record<
  | 'pushSubscriptionsMax'
  | 'pushSubscriptionsPerDevice'
  | 'pushDeliveryTimeoutMs'
  | 'pushDeliveriesInFlight'
  | 'pushDeliveriesQueuedMax'
  | 'pushFailuresBeforeForget',
  number
>;

export interface PushNotifierOptions {
  stateDir: string;
  logger: Logger;
  limits?: Partial<PushLimits>;
  /** VAPID `sub` claim: the hub's public URL or a mailto: (RFC 8292 §2.1). */
  subject?: string;
  /** Seconds a push service may hold an undelivered message. */
  ttlSeconds?: number;
  /** HTTPS agent for push-service requests (a private CA, e.g. behind a corporate proxy). */
  agent?: Agent;
  /** This hub's id and name, named in every payload and in its deep link. */
  hub?: PushMachine;
  /** Test-only config `testOnly.pushPrivateEndpoints`: endpoints on loopback and private addresses are allowed. */
  allowPrivateEndpoints?: boolean;
}

const DEFAULT_TTL_S = 3600;

export class PushNotifier implements PushPort {
  readonly publicKey: string;
  readonly subscriptions: PushSubscriptionStore;
  readonly allowPrivateEndpoints: boolean;
  private readonly privateKey: string;
  private readonly subject: string;
  private readonly ttl: number;
  private readonly log: Logger;
  private readonly agent: Agent | undefined;
  private readonly hub: PushMachine | undefined;
  private readonly limits: PushLimits;
  private readonly queue: DeliveryQueue;
  /** Failed deliveries in a row per endpoint (reset by a delivery; bounded by the subscriptions). */
  private readonly failures = new Map<string, number>();

  constructor(opts: PushNotifierOptions) {
    const keys = loadOrCreateVapidKeys(opts.stateDir);
    this.publicKey = keys.publicKey;
    this.privateKey = keys.privateKey;
    // web-push requires an https: or mailto: subject; a loopback hub has neither.
    this.subject =
      opts.subject?.startsWith('https://') || opts.subject?.startsWith('mailto:') ? opts.subject : 'mailto:zcode-hub@localhost';
    this.ttl = opts.ttlSeconds ?? DEFAULT_TTL_S;
    this.limits = { ...LIMITS, ...opts.limits };
    this.subscriptions = new PushSubscriptionStore(opts.stateDir, {
      max: this.limits.pushSubscriptionsMax,
      perDevice: this.limits.pushSubscriptionsPerDevice,
    });
    this.queue = new DeliveryQueue(this.limits.pushDeliveriesInFlight, this.limits.pushDeliveriesQueuedMax);
    this.log = opts.logger.child({ component: 'push' });
    this.agent = opts.agent;
    this.hub = opts.hub ? { hubId: opts.hub.hubId, name: opts.hub.name } : undefined;
    this.allowPrivateEndpoints = opts.allowPrivateEndpoints === true;
  }

  /** Fire-and-forget: sends to every subscription without blocking the caller. */
  notify(kind: PushKind, sessionId: string, title: string, waiting?: WaitingInteraction): void {
    const hub = this.hub;
    void this.send({ kind, sessionId, ...pushContent(kind, sessionId, title, waiting, hub), ...(hub ? { hub } : {}) });
  }

  /** Sends one payload to every subscription; resolves with the number delivered. */
  async send(payload: PushPayload): Promise<number> {
    const text = JSON.stringify(payload);
    const results = await Promise.all(this.subscriptions.list().map((s) => this.sendOne(s, text)));
    return results.filter(Boolean).length;
  }

  /** Deliveries running, waiting and dropped (the queue's bound). */
  get deliveryStats(): { running: number; waiting: number; dropped: number } {
    return this.queue.stats;
  }

  private async sendOne(sub: StoredSubscription, text: string): Promise<boolean> {
    const outcome = await this.queue.run(() =>
      deliver(sub, text, {
        vapid: { subject: this.subject, publicKey: this.publicKey, privateKey: this.privateKey },
        ttlSeconds: this.ttl,
        timeoutMs: this.limits.pushDeliveryTimeoutMs,
        allowPrivate: this.allowPrivateEndpoints,
        ...(this.agent ? { agent: this.agent } : {}),
      }),
    );
    if (outcome === DROPPED) {
      this.log.debug('push delivery dropped: the queue is full');
      return false;
    }
    this.settle(sub.endpoint, outcome);
    return outcome.kind === 'delivered';
  }

  /** Counts failures and forgets endpoints that are gone, refused, or failed too often in a row. */
  private settle(endpoint: string, outcome: DeliveryOutcome): void {
    if (outcome.kind === 'delivered') {
      this.failures.delete(endpoint);
      return;
    }
    const gone = outcome.kind === 'status' && (outcome.status === 404 || outcome.status === 410);
    const count = (this.failures.get(endpoint) ?? 0) + 1;
    const forget = gone || outcome.kind === 'refused' || count >= this.limits.pushFailuresBeforeForget;
    this.log.debug(
      { outcome: outcome.kind, ...(outcome.kind === 'status' ? { status: outcome.status } : {}), failures: count },
      'push delivery failed',
    );
    if (forget) {
      this.failures.delete(endpoint);
      if (this.subscriptions.forget(endpoint)) this.log.info({ outcome: outcome.kind, failures: count }, 'push subscription forgotten');
    } else {
      // Counts of endpoints removed meanwhile are pruned, so the map never outgrows the store.
      const stored = new Set(this.subscriptions.list().map((s) => s.endpoint));
      for (const e of this.failures.keys()) if (!stored.has(e)) this.failures.delete(e);
      if (stored.has(endpoint)) this.failures.set(endpoint, count);
    }
  }
}
