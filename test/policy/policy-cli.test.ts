/**
 * `zcode-hub policy` across real processes (docs/SECURITY.md "Approval rules"): `zcode-hub
 * start` on port 0 with the simulator child, the CLI as separate processes talking to it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli, killStarted, ready, start, tempHome } from '../daemon/process-helpers.js';
import { AcpWsClient } from '../helpers/acp-ws-client.js';
import { prompt } from './helpers.js';

afterEach(killStarted);

const EXAMPLE = path.join(import.meta.dirname, '../../docs/policy.example.json');

describe('zcode-hub policy with a real daemon process', () => {
  it('show, set FILE (the example policy), check, a stale --revision, a bad file, --help', async () => {
    const { home, stateDir } = tempHome();
    const daemon = start(home, stateDir);
    await ready(stateDir);
    const run = (...args: string[]) => cli(home, ['policy', ...args, '--state-dir', stateDir]);

    const empty = run('show');
    expect(empty.status, empty.stderr).toBe(0);
    expect(empty.stdout).toContain('no rules: every operator is asked');
    const set = run('set', EXAMPLE, '--revision', '0');
    expect(set.status, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/policy revision 1: 4 rule\(s\)/);
    expect(fs.statSync(path.join(stateDir, 'policy.json')).mode & 0o777).toBe(0o600);
    const shown = run('show');
    expect(shown.stdout).toMatch(/^1\. reads-in-workspace: allow/m);
    expect(shown.stdout).toMatch(/^2\. rm-rf: ask by admin/m);

    const rm = run('check', '--tool', 'Bash', '--command', 'rm -rf build');
    expect(rm.status, rm.stderr).toBe(0);
    expect(rm.stdout).toBe('rule rm-rf: ask (waiting for an admin)\n');
    const write = run('check', '--tool', 'Write', '--path', '/etc/hosts');
    expect(write.stdout).toContain('rule writes-outside-workspace: ask');
    expect(run('check', '--kind', 'question').stdout).toContain('no rule matches');

    const stale = run('set', EXAMPLE, '--revision', '0');
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain('the hub refused it: The policy is at revision 1, not 0: read it again (HUB_ERR_CONFLICT)');
    const bad = path.join(home, 'bad.json');
    fs.writeFileSync(bad, JSON.stringify({ rules: [{ id: 'x', match: {}, decide: 'perhaps' }] }));
    const refused = run('set', bad);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('body.rules.0.decide');
    expect(run('check').status).toBe(2);
    const help = cli(home, ['policy', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('zcode-hub policy set FILE');
    daemon.child.kill('SIGTERM');
    expect(await daemon.exited).toBe(0);
  }, 120_000);

  it('grants lists the "always allow" the hub kept; revoke removes it; an unknown id fails', async () => {
    const { home, stateDir } = tempHome();
    const daemon = start(home, stateDir);
    const { url } = await ready(stateDir);
    const run = (...args: string[]) => cli(home, ['policy', ...args, '--state-dir', stateDir]);
    expect(run('grants').stdout).toContain('no "always allow" grants');

    const token = fs.readFileSync(path.join(stateDir, 'admin.token'), 'utf8').trim();
    const editor = await AcpWsClient.connect(`${url.replace(/^http/, 'ws')}/acp`, { token });
    try {
      await editor.initialize({ name: 'zed' });
      const { sessionId } = await editor.request<{ sessionId: string }>('session/new', { cwd: home, mcpServers: [] });
      const turn = prompt(editor, sessionId, 'permission please');
      const req = await editor.waitForRequest('session/request_permission', (q) => q.params.sessionId === sessionId);
      editor.answer(req.id, { outcome: { outcome: 'selected', optionId: 'allow_project' } });
      expect((await turn).stopReason).toBe('end_turn');
    } finally {
      await editor.close();
    }
    const listed = run('grants');
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^g_[0-9a-f]+ {2}Bash npm test {2}by admin \(zed\) on \d{4}-/m);
    const id = /^(g_[0-9a-f]+)/m.exec(listed.stdout)?.[1] ?? '';
    const json = JSON.parse(run('grants', '--json').stdout) as { grants: Array<{ id: string }> };
    expect(json.grants.map((g) => g.id)).toEqual([id]);

    const revoked = run('revoke', id);
    expect(revoked.status, revoked.stderr).toBe(0);
    expect(revoked.stdout).toBe(`removed ${id}: the next such request is asked again\n`);
    expect(run('grants').stdout).toContain('no "always allow" grants');
    const unknown = run('revoke', id);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('(HUB_ERR_NOT_FOUND)');
    expect(run('revoke').status).toBe(2);
    daemon.child.kill('SIGTERM');
    expect(await daemon.exited).toBe(0);
  }, 120_000);
});
