import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { RemoteApp } from '../helpers/remote-app.js';

/** zcode-acp-remote's Files (its ADR 0005) against a real hub (issue 13 items 2 and 3). */
let hub: HubHarness;

beforeAll(async () => {
  hub = await startHub();
});
afterAll(async () => {
  await hub?.close();
});

describe('zcode-acp-remote: Files', () => {
  it('initialize advertises agentCapabilities._meta.zcode.fs, so the app shows its Files button', async () => {
    const app = await RemoteApp.connect(hub.url, await hub.token('view', 'phone'));
    try {
      expect(app.fsCapable).toBe(true);
    } finally {
      app.close();
    }
  });
});
