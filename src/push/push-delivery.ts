/**
 * One push request to one endpoint, bounded: `web-push` builds the encrypted, VAPID-signed
 * request (RFC 8291, RFC 8292) and this file sends it, with a hard deadline over the whole
 * exchange (connect, TLS, answer) and the answer's body discarded unread, so an endpoint that
 * never answers or answers forever holds one socket for at most `limits.pushDeliveryTimeoutMs`.
 * web-push's own sender has only an idle timeout and buffers the whole answer.
 */
import https from 'node:https';
import webpush from 'web-push';
import { isPublicAddress, literalHost, PRIVATE_ADDRESS, PrivateAddressError, publicOnlyLookup } from './endpoint-guard.js';
import type { PushSubscriptionJson } from './subscription-store.js';

/** How one delivery ended. */
export type DeliveryOutcome =
  | { kind: 'delivered' }
  /** The push service answered with a non-2xx status (404/410: the subscription is gone). */
  | { kind: 'status'; status: number }
  /** The endpoint's address is not public (any more). */
  | { kind: 'refused'; reason: string }
  /** No answer in time, or the connection failed. */
  | { kind: 'failed'; reason: string };

export interface DeliveryOptions {
  vapid: { subject: string; publicKey: string; privateKey: string };
  ttlSeconds: number;
  timeoutMs: number;
  /** Test-only (`testOnly.pushPrivateEndpoints`): private and loopback addresses are allowed. */
  allowPrivate: boolean;
  /** HTTPS agent (a private CA); its sockets still go through the public-only lookup. */
  agent?: https.Agent;
}

/** Sends `text` to `sub`; never throws. */
export async function deliver(sub: PushSubscriptionJson, text: string, opts: DeliveryOptions): Promise<DeliveryOutcome> {
  let details: ReturnType<typeof webpush.generateRequestDetails>;
  try {
    details = webpush.generateRequestDetails({ endpoint: sub.endpoint, keys: sub.keys }, text, {
      vapidDetails: opts.vapid,
      TTL: opts.ttlSeconds,
      urgency: 'high',
    });
  } catch (err) {
    return { kind: 'failed', reason: (err as Error).message };
  }
  const url = new URL(details.endpoint);
  if (url.protocol !== 'https:') return { kind: 'refused', reason: 'endpoint is not https' };
  const literal = literalHost(details.endpoint);
  if (!opts.allowPrivate && literal !== undefined && !isPublicAddress(literal))
    return { kind: 'refused', reason: `endpoint address ${literal} is not public` };
  return new Promise<DeliveryOutcome>((resolve) => {
    // The outcome is known at the answer or the error, but the delivery only ends when the
    // request's connection is really closed ('close'): the caller's in-flight slot is freed
    // then, so a deadline that destroys a socket never lets a new one open before the old one is
    // gone (measured: under load the TLS socket outlived its 'error' by enough for two more).
    let outcome: DeliveryOutcome | undefined;
    const settle = (o: DeliveryOutcome) => {
      outcome ??= o;
    };
    const req = https.request(
      url,
      {
        method: details.method,
        headers: details.headers,
        signal: AbortSignal.timeout(opts.timeoutMs),
        ...(opts.allowPrivate ? {} : { lookup: publicOnlyLookup }),
        ...(opts.agent ? { agent: opts.agent } : {}),
      },
      (res) => {
        // Only the status matters; the body is drained unread, and the deadline still holds.
        res.resume();
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          settle(status >= 200 && status < 300 ? { kind: 'delivered' } : { kind: 'status', status });
        });
        res.on('error', (err) => settle({ kind: 'failed', reason: err.message }));
        res.on('close', () => settle({ kind: 'failed', reason: 'the answer was cut off' }));
      },
    );
    req.on('error', (err) =>
      settle(
        err instanceof PrivateAddressError || (err as { code?: unknown }).code === PRIVATE_ADDRESS
          ? { kind: 'refused', reason: err.message }
          : { kind: 'failed', reason: err.message },
      ),
    );
    req.on('close', () => resolve(outcome ?? { kind: 'failed', reason: 'the connection closed without an answer' }));
    req.end(details.body ?? undefined);
  });
}
