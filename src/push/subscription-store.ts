/**
 * Browser push subscriptions, kept in `<state-dir>/push-subscriptions.json` (0600, atomic
 * writes). Each belongs to the device (token) that registered it: only that device or an admin
 * removes it, a device keeps at most `limits.pushSubscriptionsPerDevice` (its own oldest goes
 * first, never another device's), and past `limits.pushSubscriptionsMax` in all a new one is
 * refused (docs/SECURITY.md "Push endpoints").
 */
import path from 'node:path';
import { z } from 'zod';
import { keepPrivate, readFileIfExists, writeFileAtomic } from '../fs/secure-file.js';

/** A PushSubscription as `subscription.toJSON()` produces it (Push API §). */
export const pushSubscriptionSchema = z.object({
  endpoint: z
    .url()
    .max(2048)
    .refine((u) => u.startsWith('https://'), 'endpoint must be https'),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: z.string().min(1).max(256), auth: z.string().min(1).max(128) }),
});
export type PushSubscriptionJson = z.infer<typeof pushSubscriptionSchema>;

// Read back loosely (an older file may hold an http endpoint): the sender refuses and forgets those.
const storedSchema = pushSubscriptionSchema.extend({
  endpoint: z.string().max(2048),
  device: z.string().max(256),
  tokenId: z.string().max(256),
  createdAt: z.number(),
});
export type StoredSubscription = z.infer<typeof storedSchema>;
const fileSchema = z.object({ subscriptions: z.array(storedSchema) });

/** The device a subscription belongs to: the authenticated token, never what the body says. */
export interface SubscriptionOwner {
  device: string;
  tokenId: string;
}

/** What `add` did. */
export type AddResult =
  | { kind: 'added' | 'refreshed'; evicted: string[] }
  /** Another device holds this endpoint. */
  | { kind: 'taken' }
  /** `pushSubscriptionsMax` subscriptions are stored already. */
  | { kind: 'full' };

/** What `remove` did. */
export type RemoveResult = 'removed' | 'absent' | 'not_yours';

export interface SubscriptionLimits {
  /** All subscriptions (LIMITS.pushSubscriptionsMax). */
  max: number;
  /** Per device (LIMITS.pushSubscriptionsPerDevice). */
  perDevice: number;
}

export class PushSubscriptionStore {
  private readonly file: string;
  private subs: StoredSubscription[];

  constructor(
    stateDir: string,
    private readonly limits: SubscriptionLimits,
  ) {
    this.file = path.join(stateDir, 'push-subscriptions.json');
    this.subs = this.read();
  }

  private read(): StoredSubscription[] {
    const text = readFileIfExists(this.file);
    if (text === undefined) return [];
    // Subscriptions carry each browser's push secrets: 0600 like every other private file.
    keepPrivate(this.file);
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return [];
    }
    const parsed = fileSchema.safeParse(raw);
    return parsed.success ? parsed.data.subscriptions : [];
  }

  private write(): void {
    writeFileAtomic(this.file, `${JSON.stringify({ subscriptions: this.subs }, null, 2)}\n`, 0o600);
  }

  /** Adds or refreshes `owner`'s subscription (same endpoint = same browser). */
  add(sub: PushSubscriptionJson, owner: SubscriptionOwner, now = Date.now()): AddResult {
    const existing = this.subs.find((s) => s.endpoint === sub.endpoint);
    if (existing && existing.tokenId !== owner.tokenId) return { kind: 'taken' };
    if (!existing && this.subs.length >= this.limits.max) return { kind: 'full' };
    this.subs = this.subs.filter((s) => s.endpoint !== sub.endpoint);
    this.subs.push({ ...sub, device: owner.device, tokenId: owner.tokenId, createdAt: now });
    const own = this.subs.filter((s) => s.tokenId === owner.tokenId);
    const evicted = own.slice(0, Math.max(0, own.length - this.limits.perDevice)).map((s) => s.endpoint);
    if (evicted.length > 0) this.subs = this.subs.filter((s) => !evicted.includes(s.endpoint));
    this.write();
    return { kind: existing ? 'refreshed' : 'added', evicted };
  }

  /** Removes a subscription for its owner, or for anyone when `admin`. */
  remove(endpoint: string, by: { tokenId: string; admin: boolean }): RemoveResult {
    const existing = this.subs.find((s) => s.endpoint === endpoint);
    if (!existing) return 'absent';
    if (existing.tokenId !== by.tokenId && !by.admin) return 'not_yours';
    this.forget(endpoint);
    return 'removed';
  }

  /** Drops a subscription the push service no longer takes (404/410, repeated failures); true when it existed. */
  forget(endpoint: string): boolean {
    const before = this.subs.length;
    this.subs = this.subs.filter((s) => s.endpoint !== endpoint);
    if (this.subs.length === before) return false;
    this.write();
    return true;
  }

  /** Removes every subscription of a revoked token. */
  removeToken(tokenId: string): void {
    const before = this.subs.length;
    this.subs = this.subs.filter((s) => s.tokenId !== tokenId);
    if (this.subs.length !== before) this.write();
  }

  /** Current subscriptions (a copy). */
  list(): StoredSubscription[] {
    return this.subs.slice();
  }
}
