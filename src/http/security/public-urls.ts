/**
 * Public addresses an admin added while the hub runs: a quick tunnel's
 * hostname changes on every start, and restarting the daemon with `--public-url` to accept it
 * drops every client. Added URLs join the Host and Origin allow-lists at once and survive a
 * restart in `<state-dir>/public-urls.json` (0600, atomic). `--public-url` stays the primary one.
 */
import { z } from 'zod';
import { HubError } from '../../errors.js';
import { ListFile } from '../../fs/list-file.js';
import { parseHttpUrl } from './http-url.js';

/** Normalises an admin-given URL to `scheme://host[:port]`; throws HUB_ERR_BAD_REQUEST with why. */
export function normalisePublicUrl(input: string): string {
  const u = parseHttpUrl(input);
  if ((u.pathname !== '/' && u.pathname !== '') || u.search || u.hash)
    throw new HubError('HUB_ERR_BAD_REQUEST', 'Only the address itself, without a path');
  return u.origin;
}

export class PublicUrls {
  private urls: string[];
  private readonly store: ListFile<string>;

  /** `file` undefined = in memory only (tests that need no persistence). */
  constructor(
    file: string | undefined,
    private readonly max: number,
    onBadFile: (message: string) => void = () => undefined,
  ) {
    // `public-urls.json`: `{version: 1, urls: [...]}`; a URL that no longer normalises is dropped on read.
    this.store = new ListFile(file, { key: 'urls', version: 1, versions: { 1: z.string() }, normalise: normalisePublicUrl });
    this.urls = this.store.read(onBadFile).slice(0, max);
  }

  /** The added URLs, oldest first. */
  list(): readonly string[] {
    return this.urls;
  }

  /** The most recently added URL (what `pair` should print when there is no --public-url). */
  latest(): string | undefined {
    return this.urls[this.urls.length - 1];
  }

  /** Adds (or moves to the end) a URL; refuses past `max` (HUB_ERR_LIMIT). */
  add(input: string): string {
    const url = normalisePublicUrl(input);
    const rest = this.urls.filter((x) => x !== url);
    if (rest.length >= this.max)
      throw new HubError('HUB_ERR_LIMIT', `At most ${this.max} public addresses; remove one first`, { limit: this.max });
    this.urls = [...rest, url];
    this.save();
    return url;
  }

  /** Removes a URL; false when it was not there. */
  remove(input: string): boolean {
    const url = normalisePublicUrl(input);
    if (!this.urls.includes(url)) return false;
    this.urls = this.urls.filter((x) => x !== url);
    this.save();
    return true;
  }

  /** True when `hostname` (lower case, IPv6 without brackets) is one of the added URLs' hosts. */
  hasHost(hostname: string): boolean {
    return this.urls.some((x) => new URL(x).hostname.replace(/^\[|\]$/g, '') === hostname);
  }

  /** True when `origin` is exactly one of the added URLs. */
  hasOrigin(origin: string): boolean {
    return this.urls.includes(origin);
  }

  private save(): void {
    this.store.write(this.urls);
  }
}
