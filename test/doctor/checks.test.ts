import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodeFor, formatReport, runChecks, type DoctorFacts } from '../../src/doctor/checks.js';
import { gatherFacts, providerFileHealth } from '../../src/doctor/gather.js';
import { buildConfig } from '../../src/config/load.js';

const healthy: DoctorFacts = {
  host: '127.0.0.1',
  port: 8377,
  tls: false,
  allowOrigins: [],
  backendChoice: 'auto',
  backendState: 'ready',
  backendKind: 'sim',
  backendRestarts: 0,
  stateDir: { path: '/s', mode: 0o700 },
  secrets: [{ path: '/s/admin.token', mode: 0o600 }],
  providerFile: { path: '/p.json', exists: false, valid: true, issues: [] },
  daemonRunning: true,
  pendingInteractions: 0,
  clients: 1,
};

const failing = (facts: DoctorFacts) => runChecks(facts).filter((c) => c.status === 'fail');

describe('doctor checks', () => {
  it('a healthy default setup is healthy (warnings only for the simulator)', () => {
    const checks = runChecks(healthy);
    expect(exitCodeFor(checks)).toBe(0);
    expect(failing(healthy)).toEqual([]);
    expect(checks.find((c) => c.id === 'backend.cli')?.status).toBe('warn');
  });

  it('flags a world-readable secret with the chmod fix', () => {
    const f = failing({ ...healthy, secrets: [{ path: '/s/admin.token', mode: 0o644 }] });
    expect(f.map((c) => c.id)).toEqual(['secret-mode']);
    expect(f[0]!.fix).toBe('chmod 600 /s/admin.token');
  });

  it('flags a non-loopback bind without TLS or an https public URL, but not with one', () => {
    expect(failing({ ...healthy, host: '0.0.0.0' }).map((c) => c.id)).toEqual(['bind']);
    expect(failing({ ...healthy, host: '0.0.0.0', publicUrl: 'https://hub.example.com' })).toEqual([]);
  });

  it('flags an invalid provider file with its issues', () => {
    const f = failing({ ...healthy, providerFile: { path: '/p.json', exists: true, valid: false, issues: ['config: Unrecognized key'] } });
    expect(f.map((c) => c.id)).toEqual(['provider-file']);
    expect(f[0]!.message).toContain('Unrecognized key');
  });

  it('flags a backend in failed, quoting its stderr', () => {
    const f = failing({ ...healthy, backendState: 'failed', backendRestarts: 5, stderrTail: ['boom'] });
    expect(f.map((c) => c.id)).toEqual(['backend.state']);
    expect(f[0]!.message).toContain('boom');
    expect(formatReport(runChecks({ ...healthy, backendState: 'failed' }))).toMatch(/FAIL .*\n\s+fix: /);
  });

  it('flags a workspace root inside the state dir with the fix start names', () => {
    const f = failing({ ...healthy, privateWorkspaceRoots: ['/s/work'] });
    expect(f.map((c) => c.id)).toEqual(['workspace']);
    expect(f[0]!.message).toContain("workspace root /s/work is inside the hub's private files (state dir /s)");
    expect(f[0]!.fix).toContain('--workspace DIR');
    expect(failing({ ...healthy, privateWorkspaceRoots: [] })).toEqual([]);
  });

  it('flags a group/world-accessible state dir', () => {
    expect(failing({ ...healthy, stateDir: { path: '/s', mode: 0o755 } }).map((c) => c.id)).toEqual(['state-dir']);
  });

  it('gathers facts from real files: modes and provider file validity', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-doctor-'));
    const stateDir = path.join(dir, 'state');
    fs.mkdirSync(stateDir, { mode: 0o700 });
    fs.writeFileSync(path.join(stateDir, 'admin.token'), 'x', { mode: 0o644 });
    const providerFile = path.join(dir, 'provider_config.json');
    fs.writeFileSync(providerFile, JSON.stringify({ schemaVersion: 1, config: { bogus: true } }));
    const facts = gatherFacts(buildConfig({ stateDir, providerFile, backend: 'sim' }), false);
    expect(facts.secrets.find((s) => s.path.endsWith('admin.token'))?.mode).toBe(0o644);
    expect(facts.providerFile.valid).toBe(false);
    expect(providerFileHealth(path.join(dir, 'missing.json'))).toMatchObject({ exists: false, valid: true });
    expect(
      failing(facts)
        .map((c) => c.id)
        .sort(),
    ).toEqual(['provider-file', 'secret-mode']);
  });
});
