import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { z } from 'zod';
import { benchPrompt } from '../lib/bench-prompt.js';
import { promptDoneSchema } from '../lib/ipc-schema.js';
import { startLatencyProxy, type LatencyProxy, type LinkProfile } from '../lib/latency-proxy.js';
import { countFromEnv, round, switchFromEnv, type Scenario } from '../lib/scenario.js';
import { openStreamSession, type StreamSession } from '../lib/stream-session.js';

/**
 * B-PHONE (first part): what a person on a phone through a tunnel waits for. Chromium at phone
 * size, the network slowed by a round-trip proxy in front of the daemon (`BENCH_PHONE_LINK`, below), the web app
 * served by a real daemon: the time from navigation to (a) the first session row painted and (b) the
 * last turn of a 200-turn session visible in its chat (the live stream attached: the chat is
 * open on the session's socket), cold (cache cleared) and again with the cache warm, and the
 * bytes on the wire for each, with the app's assets compressed (what Chromium asks for) and
 * uncompressed (`Accept-Encoding: identity`), in the same run. WebSocket permessage-deflate is
 * not negotiated by the hub, so there is no on/off here: B-DEFLATE (b-deflate.ts) measures what it
 * would save and cost on the same traffic (BENCHMARKS.md).
 */
export const NETWORKS = {
  /** ~1.6 Mbps down, 750 kbps up, 150 ms round trip. */
  'slow-4g': { latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 },
  /** 400 kbps each way, 400 ms round trip (a slow 3G link). */
  '3g': { latency: 400, downloadThroughput: 400_000 / 8, uploadThroughput: 400_000 / 8 },
} as const;

/**
 * How the network is slowed (`BENCH_PHONE_LINK`): `proxy` (the default) puts a TCP proxy between
 * Chromium and the daemon (bench/lib/latency-proxy.ts) that delays and paces every byte, HTTP and
 * WebSocket alike, the TCP handshake of each new connection included; `cdp` is the older way,
 * `Network.emulateNetworkConditions`, which does not delay WebSocket frames (kept to compare with
 * the figures taken with it). CDP stays in both for what a proxy cannot do: clearing the cache,
 * `Accept-Encoding: identity` and counting the bytes.
 */
export function phoneLink(): 'proxy' | 'cdp' {
  const text = process.env.BENCH_PHONE_LINK;
  if (text === undefined || text === '' || text === 'proxy') return 'proxy';
  if (text === 'cdp') return 'cdp';
  throw new Error(`BENCH_PHONE_LINK is proxy or cdp (got ${JSON.stringify(text)})`);
}

/**
 * Whether the app's service worker runs (`BENCH_PHONE_SW=1`): off by default, so a cold load is
 * cold (clearing the browser's cache leaves the worker's own). With it on, a warm load is what an
 * installed app's open is — the shell from the worker's cache (web/public/sw.js) — and a "cold"
 * one only has the HTTP cache cleared.
 */
export function phoneServiceWorker(): boolean {
  return switchFromEnv('BENCH_PHONE_SW', "the app's service worker runs");
}

/** The proxy's link for one of NETWORKS: CDP's `latency` is the round trip. */
export function linkOf(network: keyof typeof NETWORKS): LinkProfile {
  const n = NETWORKS[network];
  return { rttMs: n.latency, downBytesPerSec: n.downloadThroughput, upBytesPerSec: n.uploadThroughput };
}

/** The proxy between loads (pairing, resetting): straight through. */
const OPEN_LINK: LinkProfile = { rttMs: 0, downBytesPerSec: Infinity, upBytesPerSec: Infinity };
/** The longest a load waits for the link to carry nothing before it starts (a live socket may never be silent). */
const LINK_IDLE_MAX_MS = 10_000;

/** Turns in the long session (b) opens (`BENCH_PHONE_TURNS` for another length: does it cost more to open?). */
export const phoneSessionTurns = (): number => countFromEnv('BENCH_PHONE_TURNS', 200);

const CHROMIUM = '/usr/bin/chromium';
const PHONE = { width: 390, height: 844 };
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'];

export interface PhoneLoad {
  network: keyof typeof NETWORKS;
  encoding: 'compressed' | 'identity';
  cache: 'cold' | 'warm';
  /** Navigation start → first session row visible. */
  listMs: number;
  /** Navigation start (of the session's own URL) → its last turn's prompt visible in the chat. */
  sessionMs: number;
  sessionHttpBytes: number;
  sessionWsBytes: number;
  /** Bytes received over HTTP (encoded, headers included) and WebSocket payloads. */
  httpBytes: number;
  wsBytes: number;
}

/** Counts the bytes a page receives from the moment it is called. */
function countBytes(cdp: CDPSession): { http: () => number; ws: () => number } {
  let http = 0;
  let ws = 0;
  cdp.on('Network.loadingFinished', (e: { encodedDataLength: number }) => {
    http += e.encodedDataLength;
  });
  cdp.on('Network.webSocketFrameReceived', (e: { response: { payloadData: string } }) => {
    ws += Buffer.byteLength(e.response.payloadData, 'utf8');
  });
  return { http: () => http, ws: () => ws };
}

async function pairBrowser(page: Page, s: StreamSession, origin: string): Promise<void> {
  const res = await fetch(`${s.daemon.httpUrl}/api/pair/codes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${s.daemon.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ scope: 'operate' }),
  });
  const { url } = z.object({ url: z.string() }).parse(await res.json());
  const code = decodeURIComponent(url.split('#pair=')[1] ?? '');
  await page.goto(origin);
  await page.getByLabel('Pairing code').fill(code);
  await page.getByLabel('Device name').fill('bench phone');
  await page.getByRole('button', { name: 'Pair' }).click();
  await page.getByTestId('session-row').first().waitFor({ timeout: 60_000 });
}

/**
 * Resolves in the first animation frame that shows an element with `testId`, or a text node
 * holding `text`. Checked in the page on every frame: a locator's `waitFor` polls from Node with a
 * backoff (0, 20, 50, 100, 100, then every 500 ms), so a screen painted at 1.3 s was timed at the
 * next poll, about 1.5 s, and every figure came out on one of those steps.
 */
async function shownInPage(page: Page, target: { testId: string } | { text: string }): Promise<void> {
  // No named inner functions: tsx would wrap them in a helper that the page does not have.
  await page.waitForFunction(
    (t) => {
      let el: Element | null = null;
      if ('testId' in t) el = document.querySelector(`[data-testid="${t.testId}"]`);
      else {
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n !== null && el === null; n = walker.nextNode())
          if (n.nodeValue?.includes(t.text) && n.parentElement?.checkVisibility()) el = n.parentElement;
      }
      return el?.checkVisibility() === true && el.getClientRects().length > 0;
    },
    target,
    { polling: 'raf', timeout: 120_000 },
  );
}

/** One load of the session list under `network`, cold or warm, compressed or not. */
export type Run = Pick<PhoneLoad, 'network' | 'encoding' | 'cache'>;

/** Navigates to `url` under the run's network, cache and encoding; answers ms until `shown` resolves and the bytes received. */
async function timedLoad(
  rig: PhoneRig,
  cdp: CDPSession,
  url: string,
  run: Run,
  shown: () => Promise<unknown>,
): Promise<{ ms: number; http: number; ws: number }> {
  const { page, proxy } = rig;
  await page.goto('about:blank');
  // What the page before left on the link (a chunk it fetched after its screen showed) would
  // otherwise delay this load's first bytes: each load starts on an empty link.
  await proxy?.whenIdle(LINK_IDLE_MAX_MS);
  await cdp.send('Network.enable');
  await cdp.send('Network.setExtraHTTPHeaders', { headers: run.encoding === 'identity' ? { 'Accept-Encoding': 'identity' } : {} });
  if (run.cache === 'cold') await cdp.send('Network.clearBrowserCache');
  if (proxy) proxy.setProfile(linkOf(run.network));
  else await cdp.send('Network.emulateNetworkConditions', { offline: false, ...NETWORKS[run.network] });
  const bytes = countBytes(cdp);
  const started = performance.now();
  await page.goto(url, { waitUntil: 'commit', timeout: 120_000 });
  await shown();
  const ms = round(performance.now() - started, 0);
  const out = { ms, http: bytes.http(), ws: bytes.ws() };
  // What the page asks after its screen showed (the git badge, the inbox) ends here, under this
  // load's link: left in flight, the navigation away would cancel it and close its connection,
  // and the next load would pay a new connection's handshake for it.
  await page.waitForLoadState('networkidle', { timeout: LINK_IDLE_MAX_MS }).catch(() => undefined);
  if (proxy) proxy.setProfile(OPEN_LINK);
  else await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await cdp.detach().catch(() => undefined);
  return out;
}

/** A daemon with a long session, a paired phone-sized Chromium, and the last turn's prompt to look for. */
export interface PhoneRig {
  s: StreamSession;
  context: BrowserContext;
  page: Page;
  lastPrompt: string;
  /** Where the browser opens the app: the proxy's address (an added public URL of the hub), or the daemon's own. */
  origin: string;
  proxy: LatencyProxy | undefined;
  close(): Promise<void>;
}

/**
 * The round-trip proxy in front of the daemon, its address added to the hub's public URLs (what
 * an admin does for a tunnel's hostname, docs/SECURITY.md): the hub then takes the proxy's Origin
 * as its own, with every check in place.
 */
async function proxyInFront(s: StreamSession): Promise<LatencyProxy> {
  const daemon = new URL(s.daemon.httpUrl);
  const proxy = await startLatencyProxy({ host: daemon.hostname, port: Number(daemon.port) }, OPEN_LINK);
  const res = await fetch(`${s.daemon.httpUrl}/api/settings/public-urls`, {
    method: 'POST',
    headers: { authorization: `Bearer ${s.daemon.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: proxy.url }),
  });
  if (res.status !== 201) {
    await proxy.close();
    throw new Error(`adding the proxy's address to the hub: ${res.status} ${await res.text()}`);
  }
  return proxy;
}

/** Starts the daemon, seeds a `turns`-turn session through it and pairs a phone-sized Chromium. */
export async function openPhoneRig(turns: number): Promise<PhoneRig> {
  const s = await openStreamSession({ clients: 1, rate: 1, bytes: 300, durationMs: 1_000 });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-bench-phone-'));
  let context: BrowserContext | undefined;
  let proxy: LatencyProxy | undefined;
  const close = async () => {
    await context?.close();
    await proxy?.close();
    fs.rmSync(dir, { recursive: true, force: true });
    await s.close();
  };
  try {
    // A long session: turns of one short bench event each, then a last turn the chat can be searched for.
    for (let k = 1; k < turns; k++)
      await s.load.call(
        promptDoneSchema,
        { op: 'prompt', client: 0, sessionId: s.sessionId, text: benchPrompt({ rate: 20, bytes: 300, ms: 50 }) },
        60_000,
      );
    const lastPrompt = `last turn ${turns} of the long session`;
    await s.load.call(promptDoneSchema, { op: 'prompt', client: 0, sessionId: s.sessionId, text: lastPrompt }, 120_000);
    context = await chromium.launchPersistentContext(dir, {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      viewport: PHONE,
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      serviceWorkers: phoneServiceWorker() ? 'allow' : 'block',
    });
    const page = context.pages()[0] ?? (await context.newPage());
    if (phoneLink() === 'proxy') proxy = await proxyInFront(s);
    const origin = proxy?.url ?? s.daemon.httpUrl;
    await pairBrowser(page, s, origin);
    return { s, context, page, lastPrompt, origin, proxy, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** The two loads of one run: the session list at `/`, then the long session's chat at `/s/<id>`. */
export async function loadListAndChat(
  rig: PhoneRig,
  run: Run,
  observe?: (cdp: CDPSession, what: 'list' | 'chat') => void,
): Promise<{ list: Awaited<ReturnType<typeof timedLoad>>; chat: Awaited<ReturnType<typeof timedLoad>> }> {
  const { s, context, page, lastPrompt, origin } = rig;
  const cdpList = await context.newCDPSession(page);
  observe?.(cdpList, 'list');
  const list = await timedLoad(rig, cdpList, origin, run, () => shownInPage(page, { testId: 'session-row' }));
  const cdpChat = await context.newCDPSession(page);
  observe?.(cdpChat, 'chat');
  const chat = await timedLoad(rig, cdpChat, `${origin}/s/${s.sessionId}`, run, () => shownInPage(page, { text: lastPrompt }));
  return { list, chat };
}

/** Every combination of network × encoding × cache, the same daemon and browser for all. */
export async function measurePhone(
  networks: Array<keyof typeof NETWORKS>,
  turns: number,
  log: (line: string) => void,
): Promise<PhoneLoad[]> {
  const rig = await openPhoneRig(turns);
  try {
    const out: PhoneLoad[] = [];
    for (const network of networks)
      for (const encoding of ['compressed', 'identity'] as const)
        for (const cache of ['cold', 'warm'] as const) {
          const run = { network, encoding, cache };
          const { list, chat } = await loadListAndChat(rig, run);
          const r: PhoneLoad = {
            ...run,
            listMs: list.ms,
            httpBytes: list.http,
            wsBytes: list.ws,
            sessionMs: chat.ms,
            sessionHttpBytes: chat.http,
            sessionWsBytes: chat.ws,
          };
          log(
            `${network} ${encoding} ${cache}: session list ${r.listMs} ms (${r.httpBytes} B HTTP, ${r.wsBytes} B WS); ` +
              `${turns}-turn session's last turn ${r.sessionMs} ms (${r.sessionHttpBytes} B HTTP, ${r.sessionWsBytes} B WS)`,
          );
          out.push(r);
        }
    return out;
  } finally {
    await rig.close();
  }
}

/** B-PHONE: headline (b) on slow-4G, cold, compressed (goal: under 1.5 s). */
export const bPhone: Scenario = {
  id: 'B-PHONE',
  proves: ['B-PHONE'],
  get goal() {
    return `a ${phoneSessionTurns()}-turn session's last turn visible on a phone over slow-4G, cold, compressed: < 1.5 s (also the session list, 3G, warm, uncompressed)`;
  },
  unit: 'ms',
  runs: 1,
  passes: (s) => s.value < 1_500,
  async run(_i, log) {
    const turns = phoneSessionTurns();
    const link = phoneLink();
    const loads = await measurePhone(['slow-4g', '3g'], turns, log);
    const headline = loads.find((l) => l.network === 'slow-4g' && l.encoding === 'compressed' && l.cache === 'cold');
    return {
      value: headline?.sessionMs ?? Number.NaN,
      extra: { turns, link, serviceWorker: phoneServiceWorker(), networks: NETWORKS, loads },
    };
  },
};
