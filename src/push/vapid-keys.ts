/**
 * VAPID keys of this hub (RFC 8292), generated once with `web-push` and kept in the state dir
 * with mode 0600: the public key goes to browsers, the private key signs every push.
 */
import path from 'node:path';
import webpush from 'web-push';
import { z } from 'zod';
import { keepPrivate, readFileIfExists, writeFileAtomic } from '../fs/secure-file.js';

const vapidFileSchema = z.object({ publicKey: z.string().min(40), privateKey: z.string().min(20) }).strict();
export type VapidKeys = z.infer<typeof vapidFileSchema>;

/** The key file's path in a state dir. */
export function vapidFile(stateDir: string): string {
  return path.join(stateDir, 'push-vapid.json');
}

/** Reads the hub's VAPID keys, creating them (0600) on first use or when the file is unreadable. */
export function loadOrCreateVapidKeys(stateDir: string): VapidKeys {
  const file = vapidFile(stateDir);
  const text = readFileIfExists(file);
  if (text !== undefined) {
    // The private key signs every push: a loosened mode is set back on every start.
    keepPrivate(file);
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      raw = undefined;
    }
    const parsed = vapidFileSchema.safeParse(raw);
    if (parsed.success) return parsed.data;
  }
  const keys = webpush.generateVAPIDKeys();
  const fresh = { publicKey: keys.publicKey, privateKey: keys.privateKey };
  writeFileAtomic(file, `${JSON.stringify(fresh, null, 2)}\n`, 0o600);
  return fresh;
}
