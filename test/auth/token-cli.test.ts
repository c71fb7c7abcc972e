import { afterEach, describe, expect, it } from 'vitest';
import { runPairCli } from '../../src/cli/pair.js';
import { runTokenCli } from '../../src/cli/token.js';
import { createAuthServices } from '../../src/auth/auth-services.js';
import { writeHubFile } from '../../src/daemon/state-files.js';
import { LIMITS } from '../../src/limits.js';
import { VERSION } from '../../src/version.js';
import { registerSecret } from '../security/helpers/log-capture.js';
import { startSecuredHub, type SecuredHub } from '../security/helpers/secured-hub.js';
import { tempDir } from '../security/helpers/temp-dir.js';
import { collector } from '../helpers/cli-io.js';

describe('zcode-hub token / pair (ARCHITECTURE.md §9)', () => {
  const cleanups: Array<() => void | Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  /** A secured hub announced through hub.json, as `zcode-hub start` does. */
  async function runningHub(publicUrl = 'https://hub.example.test'): Promise<SecuredHub> {
    const hub = await startSecuredHub(publicUrl ? { publicUrl } : {});
    cleanups.push(() => hub.close());
    writeHubFile(hub.stateDir, {
      pid: process.pid,
      host: '127.0.0.1',
      port: hub.port,
      url: hub.url,
      version: VERSION,
      startedAt: Date.now(),
    });
    return hub;
  }

  it('offline: create, list and revoke work on the state dir when no daemon runs', async () => {
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    const created = collector();
    expect(await runTokenCli(['create', '--scope', 'view', '--name', 'tablet', '--ttl', '7d', '--state-dir', tmp.dir], created)).toBe(0);
    const token = created.out().trim();
    registerSecret(token);
    expect(token.split('.')).toHaveLength(3);
    expect(created.err()).toMatch(/'tablet' \(view\)/);
    const list = collector();
    expect(await runTokenCli(['list', '--json', '--state-dir', tmp.dir], list)).toBe(0);
    const [info] = (JSON.parse(list.out()) as { tokens: Array<{ id: string; name: string; state: string; via: string }> }).tokens;
    expect(info).toMatchObject({ name: 'tablet', state: 'active', via: 'cli' });
    const services = createAuthServices({ stateDir: tmp.dir, limits: LIMITS });
    cleanups.push(() => services.close());
    expect(await services.tokens.authenticate(token)).toMatchObject({ name: 'tablet', scope: 'view' });
    const revoke = collector();
    // Flags may come before the sub-command, as with every other command.
    expect(await runTokenCli(['--state-dir', tmp.dir, 'revoke', info?.id ?? ''], revoke)).toBe(0);
    const bare = collector();
    expect(await runTokenCli(['--state-dir', tmp.dir], bare)).toBe(2);
    // No sub-command: which ones there are, on stderr (the output of a failed command is not data).
    expect(bare.out()).toBe('');
    expect(bare.err()).toMatch(/^zcode-hub token: which one\? create, list, revoke\n\nUsage:\n {2}zcode-hub token create/);
    const after = createAuthServices({ stateDir: tmp.dir, limits: LIMITS });
    cleanups.push(() => after.close());
    expect(await after.tokens.authenticate(token)).toBeNull();
    expect(after.audit.page(0, 10).entries.map((e) => e.action)).toEqual(['token.create', 'token.revoke']);
  });

  it('online: create and revoke go through the running daemon, whose live registry sees them', async () => {
    const hub = await runningHub();
    const created = collector();
    expect(await runTokenCli(['create', '--scope', 'operate', '--name', 'ci-bot', '--json', '--state-dir', hub.stateDir], created)).toBe(0);
    const { token, info } = JSON.parse(created.out()) as { token: string; info: { id: string; via: string } };
    registerSecret(token);
    expect(info.via).toBe('api');
    expect(await hub.auth.tokens.authenticate(token)).toMatchObject({ name: 'ci-bot', scope: 'operate' });
    const listed = collector();
    expect(await runTokenCli(['list', '--state-dir', hub.stateDir], listed)).toBe(0);
    expect(listed.out()).toMatch(/^ID\s+NAME\s+PERSON\s+SCOPE\s+STATE/);
    expect(listed.out()).toContain('ci-bot');
    expect(listed.out()).not.toContain(token);
    const revoked = collector();
    expect(await runTokenCli(['revoke', info.id, '--state-dir', hub.stateDir], revoked)).toBe(0);
    expect(await hub.auth.tokens.authenticate(token)).toBeNull();
  });

  it('bad arguments exit 2 with a message; an unknown id exits 1', async () => {
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    for (const argv of [
      ['create', '--name', 'x'],
      ['create', '--scope', 'root', '--name', 'x'],
      ['create', '--scope', 'view', '--name', 'x', '--ttl', '10y'],
      ['revoke'],
      ['frobnicate'],
      ['list', '--bogus'],
    ]) {
      const io = collector();
      expect(await runTokenCli([...argv, '--state-dir', tmp.dir], io), argv.join(' ')).toBe(2);
      expect(io.err().length).toBeGreaterThan(0);
    }
    const io = collector();
    expect(await runTokenCli(['revoke', 'no-such-id', '--state-dir', tmp.dir], io)).toBe(1);
  });

  it('pair prints a one-time code, the public URL with #pair= and a terminal QR code', async () => {
    const hub = await runningHub();
    const io = collector();
    expect(await runPairCli(['--scope', 'view', '--state-dir', hub.stateDir], io)).toBe(0);
    const code = /Pairing code: (\S+)/.exec(io.out())?.[1] ?? '';
    registerSecret(code);
    expect(code).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
    expect(io.out()).toContain(`https://hub.example.test/#pair=${code}`);
    expect(io.out()).toMatch(/[▀▄█]/);
    expect(hub.auth.pairing.redeem(code)?.scope).toBe('view');
    // A public link: no warning.
    expect(io.err()).toBe('');
  });

  it('pair with a loopback link warns that a phone cannot open it and names the fixes', async () => {
    const hub = await runningHub('');
    const io = collector();
    expect(await runPairCli(['--state-dir', hub.stateDir, '--no-qr'], io)).toBe(0);
    registerSecret(/Pairing code: (\S+)/.exec(io.out())?.[1] ?? '');
    expect(io.out()).toMatch(/Open on the device: http:\/\/127\.0\.0\.1:\d+\/#pair=/);
    expect(io.err()).toContain('a phone cannot open it');
    expect(io.err()).toContain('--public-url');
    expect(io.err()).toContain('--host 0.0.0.0');
    expect(io.err()).toContain('docs/SECURITY.md');
  });

  it('pair without a running daemon says so and exits 1', async () => {
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    const io = collector();
    expect(await runPairCli(['--state-dir', tmp.dir], io)).toBe(1);
    expect(io.err()).toMatch(/no running daemon/);
  });
});
