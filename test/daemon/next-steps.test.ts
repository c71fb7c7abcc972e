import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nextStepsText } from '../../src/cli/next-steps.js';
import { budget, DAEMON, killStarted, ready, start, tempHome, until } from './process-helpers.js';

afterEach(killStarted);

describe('what zcode-hub start says once it is up', () => {
  it('a real start prints the next steps once, after the listening line, naming the admin token file and the pair command', {
    timeout: budget(DAEMON),
  }, async () => {
    const { home, stateDir } = tempHome();
    const d = start(home, stateDir);
    const hub = await ready(stateDir);
    const out = await until(() => (d.output().includes('Stop it:') ? d.output() : undefined), 'the next steps');
    expect(out.indexOf('listening on')).toBeLessThan(out.indexOf('zcode-hub is running at'));
    expect(out).toContain(`zcode-hub is running at ${hub.url}, on the bundled simulator (--backend sim).`);
    expect(out).toContain(`Admin token:       ${path.join(stateDir, 'admin.token')}`);
    expect(out).toContain(`Pair a phone:      zcode-hub pair --state-dir ${stateDir}`);
    expect(out.split('zcode-hub is running at').length).toBe(2);
    d.child.kill('SIGTERM');
    expect(await d.exited).toBe(0);
    expect(d.output().split('zcode-hub is running at').length).toBe(2);
  });

  it('the text: default state dir without a flag, a secret file named, a LAN address without the loopback note, a failed agent', () => {
    const home = path.join(os.homedir(), '.zcode-hub');
    const lan = nextStepsText({
      url: 'http://192.168.1.20:8377',
      stateDir: home,
      adminTokenFile: '/run/secrets/zcode_hub_admin_token',
      backend: { kind: 'zcode', state: 'ready' },
      choice: 'auto',
    });
    expect(lan).toContain('on the ZCode CLI.');
    expect(lan).toContain('Admin token:       /run/secrets/zcode_hub_admin_token');
    expect(lan).toContain('Pair a phone:      zcode-hub pair   (');
    expect(lan).not.toContain('only reachable from this computer');
    const local = nextStepsText({ url: 'http://127.0.0.1:8377', stateDir: home, backend: { kind: 'sim', state: 'ready' }, choice: 'auto' });
    expect(local).toContain('no ZCode CLI found');
    expect(local).toContain('only reachable from this computer');
    const failed = nextStepsText({
      url: 'http://127.0.0.1:8377',
      stateDir: home,
      backend: { kind: 'zcode', state: 'failed' },
      choice: 'zcode',
    });
    expect(failed).toContain('the agent could not start: run zcode-hub doctor');
  });
});
