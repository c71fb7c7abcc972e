import { afterAll, beforeAll } from 'vitest';
import { startHub, type HarnessOptions, type HubHarness } from '../../helpers/hub-harness.js';
import { openDevice, type Device, type DeviceOptions } from './browser.js';

/**
 * The shared set-up of the browser suites: one real daemon (simulator child) and one or two
 * Chromium "devices" at phone size, made in `beforeAll` and closed in `afterAll`.
 *
 *     const { hub, phone, laptop } = phoneHub({ hub: { simArgs: [...] }, laptop: true });
 *
 * The returned bindings stand for objects that only exist once `beforeAll` ran, so each is a
 * forwarding stand-in: reading a property before then throws (a test cannot silently use an
 * unset hub), after then it is the real object's property.
 */
export interface PhoneHubOptions {
  /** The daemon's options, or a function that makes them in `beforeAll` (after files it names exist). */
  hub?: HarnessOptions | (() => HarnessOptions);
  /** The phone's browser options (default: 390×844, light, en-US). */
  phone?: DeviceOptions;
  /** A second device (a "laptop" that watches the same sessions). */
  laptop?: boolean | DeviceOptions;
  /** Runs once everything is up (pairing, seeding files …). */
  setup?: (f: { hub: HubHarness; phone: Device; laptop: Device }) => Promise<void>;
}

export function stand<T extends object>(name: string, get: () => T | undefined): T {
  const real = (): T => {
    const v = get();
    if (v === undefined) throw new Error(`${name} is used before beforeAll made it (or after it failed)`);
    return v;
  };
  return new Proxy({} as T, {
    get: (_t, key) => {
      const v = real();
      const value: unknown = Reflect.get(v, key, v);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(v) : value;
    },
    set: (_t, key, value) => Reflect.set(real(), key, value),
    has: (_t, key) => Reflect.has(real(), key),
  });
}

/** Registers the suite's hub and devices (see above); returns their stand-ins. */
export function phoneHub(opts: PhoneHubOptions = {}): { hub: HubHarness; phone: Device; laptop: Device } {
  let hub: HubHarness | undefined;
  let phone: Device | undefined;
  let laptop: Device | undefined;
  const f = { hub: stand('hub', () => hub), phone: stand('phone', () => phone), laptop: stand('laptop', () => laptop) };
  beforeAll(async () => {
    // The daemon (its simulator child) and the browser start side by side: neither needs the other
    // until a device opens the hub's URL. Whatever started is kept (and closed in afterAll) even
    // when the other failed.
    const started = await Promise.allSettled([
      startHub(typeof opts.hub === 'function' ? opts.hub() : (opts.hub ?? {})).then((h) => (hub = h)),
      openDevice(opts.phone).then((d) => (phone = d)),
      opts.laptop ? openDevice(opts.laptop === true ? {} : opts.laptop).then((d) => (laptop = d)) : undefined,
    ]);
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    await opts.setup?.(f);
  });
  afterAll(async () => {
    await laptop?.close();
    await phone?.close();
    await hub?.close();
  });
  return f;
}
