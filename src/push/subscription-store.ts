/**
 * Browser push subscriptions, kept in `<state-dir>/push-subscriptions.json` (0600, atomic
 * writes). Bounded by `LIMITS.pushSubscriptionsMax`: the oldest subscription goes first.
 */
import path from 'node:path';
import { z } from 'zod';
import { keepPrivate, readFileIfExists, writeFileAtomic } from '../fs/secure-file.js';

/** A PushSubscription as `subscription.toJSON()` produces it (Push API §). */
export const pushSubscriptionSchema = z.object({
  endpoint: z
    .url()
    .max(2048)
    .refine((u) => u.startsWith('https://') || u.startsWith('http://'), 'endpoint must be http(s)'),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: z.string().min(1).max(256), auth: z.string().min(1).max(128) }),
});
export type PushSubscriptionJson = z.infer<typeof pushSubscriptionSchema>;

const storedSchema = pushSubscriptionSchema.extend({ device: z.string().max(256), tokenId: z.string().max(256), createdAt: z.number() });
export type StoredSubscription = z.infer<typeof storedSchema>;
const fileSchema = z.object({ subscriptions: z.array(storedSchema) });

export class PushSubscriptionStore {
  private readonly file: string;
  private subs: StoredSubscription[];

  constructor(
    stateDir: string,
    private readonly max: number,
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

  /** Adds or refreshes a subscription (same endpoint = same browser). */
  add(sub: PushSubscriptionJson, who: { device: string; tokenId: string }, now = Date.now()): void {
    this.subs = this.subs.filter((s) => s.endpoint !== sub.endpoint);
    this.subs.push({ ...sub, device: who.device, tokenId: who.tokenId, createdAt: now });
    if (this.subs.length > this.max) this.subs = this.subs.slice(this.subs.length - this.max);
    this.write();
  }

  /** Removes a subscription by endpoint; true when it existed. */
  remove(endpoint: string): boolean {
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
