import fs from 'node:fs';
import type { Agent } from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { startHub, type HubHarness } from '../../helpers/hub-harness.js';
import type { Page } from 'playwright-core';
import { openDevice, PHONE, type Device } from './browser.js';
import { stand } from './fixture.js';
import { newSession } from './flow.js';

/**
 * A hub that can be stopped and started again in place (same port, same state dir): a machine
 * that goes offline and comes back, as a service restart would.
 */
export interface Machine {
  hub: HubHarness;
  /** Its base URL as the phone reaches it. */
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** `pushAgent`: the HTTPS agent its pushes go through (a local push service, test/helpers/push-service.ts). */
export async function startMachine(name: string, host: 'localhost' | '127.0.0.1', opts: { pushAgent?: Agent } = {}): Promise<Machine> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `zcode-e2e-${name}-`));
  const config = {
    stateDir: path.join(dir, 'state'),
    workspace: path.join(dir, 'ws'),
    providerFile: path.join(dir, 'providers.json'),
    name,
    // A local push service is on 127.0.0.1: the test-only config option lets the hub send there.
    ...(opts.pushAgent ? { testOnly: { pushPrivateEndpoints: true } } : {}),
  };
  fs.mkdirSync(config.workspace);
  const push = opts.pushAgent ? { pushAgent: opts.pushAgent } : {};
  const first = await startHub({ config, simArgs: ['--turn-delay-scale', '0.4'], ...push });
  const port = Number(new URL(first.url).port);
  const m: Machine = {
    hub: first,
    url: `http://${host}:${port}`,
    async stop() {
      await m.hub.close();
    },
    async start() {
      m.hub = await startHub({ config: { ...config, port }, simArgs: ['--turn-delay-scale', '0.4'], ...push });
    },
    async close() {
      await m.hub.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return m;
}

/**
 * The several-machines suites' set-up: A ("laptop", the phone's home, at `hostA`), B ("desktop"
 * at 127.0.0.1) and a phone at 390×844, made in `beforeAll` and closed in `afterAll`; the
 * returned bindings are stand-ins until then (fixture.ts).
 */
export function twoMachines(hostA: 'localhost' | '127.0.0.1' = 'localhost'): { a: Machine; b: Machine; phone: Device } {
  let a: Machine | undefined;
  let b: Machine | undefined;
  let phone: Device | undefined;
  beforeAll(async () => {
    a = await startMachine('laptop', hostA);
    b = await startMachine('desktop', '127.0.0.1');
    phone = await openDevice({ viewport: PHONE });
  });
  afterAll(async () => {
    await phone?.close();
    await a?.close();
    await b?.close();
  });
  return { a: stand('a', () => a), b: stand('b', () => b), phone: stand('phone', () => phone) };
}

/** From the session list: a new session on the machine `filter` names ('' the home hub, else a hubId); returns its id. */
export async function newSessionOn(page: Page, filter: string): Promise<string> {
  await page
    .getByTestId('machine-filter')
    .and(page.locator(`[data-filter="${filter}"]`))
    .click();
  await newSession(page);
  return decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
}

/** The machine row of `hubId` on the machines page. */
export function machineRow(page: Page, hubId: string) {
  return page.getByTestId('machine-row').and(page.locator(`[data-hub-id="${hubId}"]`));
}

/** Opens B's add link on the phone's home app, confirms, and waits until it is added. */
export async function addMachine(
  page: Page,
  m: Machine,
  homeOrigin: string,
  question: string,
  beforeConfirm?: (page: Page) => Promise<void>,
): Promise<void> {
  await page.goto(await addLink(m, homeOrigin));
  const sheet = page.getByTestId('add-machine-sheet');
  await sheet.getByTestId('add-machine-question').filter({ hasText: question }).waitFor();
  await beforeConfirm?.(page);
  await sheet.getByTestId('add-machine-confirm').click();
  // The page reloads once (the home hub's CSP must list B first), then the pairing goes on by itself.
  await expect
    .poll(
      async () =>
        (await sheet.getByTestId('add-machine-error').count()) > 0
          ? `error: ${await sheet.textContent()}`
          : page.url().includes('#add=') || (await sheet.count()) > 0
            ? 'adding'
            : 'added',
      { timeout: 30_000 },
    )
    .toBe('added');
}

/** Pairs a device with a machine as its home hub (cookie), opening it at `m.url`. */
export async function pairHome(device: Device, m: Machine, deviceName: string, scope: 'operate' | 'view' = 'operate'): Promise<void> {
  const res = await m.hub.api('/api/pair/codes', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ scope }),
  });
  expect(res.status).toBe(201);
  const { code } = (await res.json()) as { code: string };
  const { page } = device;
  await page.goto(m.url);
  await page.getByLabel('Pairing code').fill(code);
  await page.getByLabel('Device name').fill(deviceName);
  await page.getByRole('button', { name: 'Pair' }).click();
  await page.getByRole('heading', { name: 'Sessions' }).waitFor();
}

/** The machine's hubId and name (`GET /api/me`, MULTI-CONTRACT "Identity"). */
export async function identityOf(m: Machine): Promise<{ hubId: string; name: string }> {
  const res = await m.hub.api('/api/me');
  expect(res.status).toBe(200);
  return (await res.json()) as { hubId: string; name: string };
}

/**
 * What `zcode-hub pair --into <home>` does on machine `m`, over its admin REST: the home app's
 * origin joins its peers, a code is made, and the add link is built (MULTI-CONTRACT).
 */
export async function addLink(m: Machine, homeOrigin: string, scope: 'operate' | 'view' = 'operate'): Promise<string> {
  const peer = await m.hub.api('/api/peers', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ origin: homeOrigin }),
  });
  expect([200, 201]).toContain(peer.status);
  const res = await m.hub.api('/api/pair/codes', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ scope }),
  });
  const { code } = (await res.json()) as { code: string };
  const { hubId, name } = await identityOf(m);
  return `${homeOrigin}/#add=${encodeURIComponent(code)}&hub=${encodeURIComponent(m.url)}&name=${encodeURIComponent(name)}&scope=${scope}&id=${hubId}`;
}
