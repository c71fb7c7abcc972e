/**
 * A sub-command the daemon refuses says so in one plain sentence — the sub-command, the hub's
 * reason and its error code — and exits 1: `zcode-hub start` on port 0 with the simulator child,
 * the CLI as separate processes talking to it, as a user runs them.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { callDaemon, DaemonUnreachable } from '../../src/cli/daemon-client.js';
import { runPeopleCli } from '../../src/cli/people.js';
import { LIMITS } from '../../src/limits.js';
import { readHubFile, writeHubFile } from '../../src/daemon/state-files.js';
import { collector } from '../helpers/cli-io.js';
import { budget, cli, DAEMON, killStarted, ready, start, tempHome } from './process-helpers.js';

afterEach(killStarted);

describe('the CLI on a refusal of the daemon', () => {
  const lines: Array<[string[], string]> = [
    [
      ['people', 'set', '11111111-1111-4111-8111-111111111111', 'ann'],
      'zcode-hub people set: the hub refused it: No such token (HUB_ERR_NOT_FOUND)\n',
    ],
    [['token', 'revoke', 'no-such-token'], 'zcode-hub token revoke: the hub refused it: No such token (HUB_ERR_NOT_FOUND)\n'],
    [['peers', 'remove', 'https://nope.example'], 'zcode-hub peers remove: the hub refused it: Not a peer (HUB_ERR_NOT_FOUND)\n'],
    [
      ['public-url', 'add', 'not-a-url'],
      'zcode-hub public-url add: the hub refused it: Not a URL: give it as https://name.example.com (HUB_ERR_BAD_REQUEST)\n',
    ],
    [['policy', 'revoke', 'g_0000'], 'zcode-hub policy revoke: the hub refused it: No "always allow" grant g_0000 (HUB_ERR_NOT_FOUND)\n'],
  ];

  it(
    'one sentence with the reason and the code, nothing on stdout, exit 1 — for every command that calls the API',
    async () => {
      const { home, stateDir } = tempHome();
      start(home, stateDir);
      await ready(stateDir);
      for (const [args, message] of lines) {
        const r = cli(home, [...args, '--state-dir', stateDir]);
        expect({ line: args.join(' '), status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
          line: args.join(' '),
          status: 1,
          stdout: '',
          stderr: message,
        });
      }
      // A request that does not match the route's schema names the field and why.
      const bad = path.join(home, 'bad.json');
      fs.writeFileSync(bad, JSON.stringify({ rules: [{ id: 'x', match: {}, decide: 'perhaps' }] }));
      const refused = cli(home, ['policy', 'set', bad, '--state-dir', stateDir]);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toBe(
        'zcode-hub policy set: the hub refused it: Request does not match the schema; ' +
          'body.rules.0.decide: Invalid option: expected one of "allow"|"deny"|"ask" (HUB_ERR_BAD_REQUEST)\n',
      );
    },
    budget(DAEMON + lines.length + 1),
  );

  it('a daemon hub.json names that does not answer: where it was looked for and why not, exit 1', async () => {
    const { stateDir } = tempHome();
    const closed = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    // A live pid (this test's) and an admin token: findDaemon takes it for the hub.
    fs.mkdirSync(stateDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(stateDir, 'admin.token'), 'x'.repeat(43), { mode: 0o600 });
    const url = `http://127.0.0.1:${closed}`;
    writeHubFile(stateDir, { pid: process.pid, host: '127.0.0.1', port: closed, url, version: '0.0.0', startedAt: Date.now() });
    expect(readHubFile(stateDir)?.url).toBe(url);
    const io = collector();
    expect(await runPeopleCli(['list', '--state-dir', stateDir], io)).toBe(1);
    expect(io.err()).toBe(
      `zcode-hub people list: the hub at ${url} (pid ${process.pid}) did not answer: connect ECONNREFUSED 127.0.0.1:${closed}\n`,
    );
  });

  it('a daemon that accepts and never answers: the call gives up at limits.cliDaemonCallTimeoutMs and says so', async () => {
    const held: net.Socket[] = [];
    // Accepts every connection and reads what comes, but never writes a byte back.
    const silent = net.createServer((socket) => {
      held.push(socket);
      socket.resume();
    });
    const port = await new Promise<number>((resolve) =>
      silent.listen(0, '127.0.0.1', () => resolve((silent.address() as net.AddressInfo).port)),
    );
    try {
      const url = `http://127.0.0.1:${port}`;
      const handle = {
        hub: { pid: process.pid, host: '127.0.0.1', port, url, version: '0.0.0', startedAt: Date.now() },
        adminToken: 'x'.repeat(43),
      };
      expect(LIMITS.cliDaemonCallTimeoutMs).toBe(10_000);
      // The bound crossed, shrunk so the test does not wait the default's ten seconds.
      const err = await callDaemon(handle, 'GET', '/api/people', undefined, 300).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(DaemonUnreachable);
      expect((err as Error).message).toBe(`the hub at ${url} (pid ${process.pid}) did not answer: no answer within 0.3 s`);
      expect(held.length).toBe(1);
    } finally {
      for (const s of held) s.destroy();
      await new Promise((r) => silent.close(r));
    }
  });
});
