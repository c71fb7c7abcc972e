/**
 * Lighthouse (mobile) scores of the phone app: the first page a signed-in phone sees (the
 * session list) and a chat with an answer in it, against a real daemon on the simulator.
 *
 *     mkdir -p /tmp/lh && (cd /tmp/lh && npm i lighthouse)
 *     LIGHTHOUSE_DIR=/tmp/lh node --import tsx scripts/lighthouse.ts
 *
 * Lighthouse is not a devDependency (it is heavy and `npm test` does not use it): point
 * `LIGHTHOUSE_DIR` at a folder where it is installed. Chromium is `CHROME_PATH` (default
 * Debian's /usr/bin/chromium), headless, no sandbox. The script builds web/dist, starts the daemon
 * in a temp dir, pairs a phone profile with a code it mints as the admin (so the pages are seen
 * signed in, as a user sees them), asks one question, then runs Lighthouse's default mobile
 * profile (simulated slow 4G, 4× CPU slowdown) on both pages in that profile, keeping its
 * storage. Prints the scores; exits 1 when one is under `--min` (default 0.95). `--json FILE`
 * writes the scores there too; `--reports DIR` keeps each page's whole Lighthouse report (JSON).
 */
import { createRequire } from 'node:module';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { z } from 'zod';
import { DaemonProcess, repoRoot } from '../bench/lib/daemon-process.js';

const { values } = parseArgs({
  options: { min: { type: 'string', default: '0.95' }, json: { type: 'string' }, reports: { type: 'string' } },
});
const MIN = Number(values.min);
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const LH_DIR = path.resolve(process.env.LIGHTHOUSE_DIR ?? repoRoot);

/** Categories of Lighthouse 12 (PWA is gone from it). */
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Scores = Record<(typeof CATEGORIES)[number], number>;

const lhrSchema = z.object({
  categories: z.record(z.string(), z.object({ score: z.number().nullable() })),
  audits: z.record(z.string(), z.object({ title: z.string(), score: z.number().nullable(), displayValue: z.string().optional() })),
});

type LighthouseFn = (url: string, flags: Record<string, unknown>) => Promise<{ lhr: unknown } | undefined>;

async function loadLighthouse(): Promise<LighthouseFn> {
  let entry: string;
  try {
    entry = createRequire(path.join(LH_DIR, 'package.json')).resolve('lighthouse');
  } catch {
    throw new Error(`lighthouse is not installed in ${LH_DIR}: run \`npm i lighthouse\` there and set LIGHTHOUSE_DIR`);
  }
  const mod = (await import(pathToFileURL(entry).href)) as { default: LighthouseFn };
  return mod.default;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function pairingCode(daemon: DaemonProcess): Promise<string> {
  const res = await fetch(`${daemon.httpUrl}/api/pair/codes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${daemon.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ scope: 'operate' }),
  });
  const body = z.object({ url: z.string() }).parse(await res.json());
  return decodeURIComponent(body.url.split('#pair=')[1] ?? '');
}

/** The failing audits of a category run, worst first (what to fix). */
function failing(lhr: z.infer<typeof lhrSchema>): string[] {
  return Object.values(lhr.audits)
    .filter((a) => a.score !== null && a.score < 0.9)
    .sort((a, b) => (a.score ?? 0) - (b.score ?? 0))
    .slice(0, 8)
    .map((a) => `    ${a.score?.toFixed(2)}  ${a.title}${a.displayValue ? ` (${a.displayValue})` : ''}`);
}

async function main(): Promise<void> {
  const lighthouse = await loadLighthouse();
  console.log('building web/dist …');
  await build({ configFile: path.join(repoRoot, 'web', 'vite.config.ts'), logLevel: 'warn' });
  const daemon = await DaemonProcess.spawn({ simArgs: ['--turn-delay-scale', '0.2'], logLevel: 'warn' });
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-lighthouse-'));
  const port = await freePort();
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROME,
    headless: true,
    args: ['--headless', '--no-sandbox', '--no-first-run', '--disable-background-networking', `--remote-debugging-port=${port}`],
    viewport: { width: 390, height: 844 },
    locale: 'en-US',
  });
  try {
    await daemon.waitHealthy(true);
    const base = daemon.httpUrl;
    // Sign in as a phone would: the pairing form, with a code the admin minted.
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(base);
    await page.getByLabel('Pairing code').fill(await pairingCode(daemon));
    await page.getByLabel('Device name').fill('Lighthouse phone');
    await page.getByRole('button', { name: 'Pair' }).click();
    await page.getByRole('heading', { name: 'Sessions' }).waitFor();
    // A chat with a question and its answer.
    await page.getByTestId('new-session').click();
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('prompt-input').fill('hello, what can you do?');
    await page.getByTestId('send-button').click();
    await page.getByTestId('stop-button').waitFor({ state: 'detached', timeout: 60_000 });
    const chatUrl = page.url();
    await page.goto('about:blank');

    const results: Record<string, Scores> = {};
    let ok = true;
    for (const [name, url] of [
      ['first page (sessions)', `${base}/`],
      ['chat', chatUrl],
    ] as const) {
      const run = await lighthouse(url, { port, output: 'json', logLevel: 'error', disableStorageReset: true });
      const lhr = lhrSchema.parse(run?.lhr);
      if (values.reports) {
        fs.mkdirSync(values.reports, { recursive: true });
        fs.writeFileSync(path.join(values.reports, `${name.split(' ')[0]}.json`), JSON.stringify(run?.lhr, null, 2));
      }
      const scores = Object.fromEntries(CATEGORIES.map((c) => [c, lhr.categories[c]?.score ?? 0])) as Scores;
      results[name] = scores;
      console.log(`\n${name}: ${url.replace(base, '')}`);
      for (const c of CATEGORIES) {
        const low = scores[c] < MIN;
        if (low) ok = false;
        console.log(`  ${c.padEnd(15)} ${scores[c].toFixed(2)}${low ? `  < ${MIN}` : ''}`);
      }
      if (CATEGORIES.some((c) => scores[c] < 1)) console.log(`  audits under 0.9:\n${failing(lhr).join('\n') || '    (none)'}`);
    }
    if (values.json) fs.writeFileSync(values.json, `${JSON.stringify(results, null, 2)}\n`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    await context.close().catch(() => undefined);
    fs.rmSync(profile, { recursive: true, force: true });
    await daemon.stop();
  }
}

await main();
