import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DAEMON_NODE_FLAGS } from '../../src/daemon/node-flags.js';

/**
 * The daemon's V8 flags (src/daemon/node-flags.ts) must reach it however it is launched. The
 * TypeScript launchers import the constant (the service units are checked in
 * test/service/units.test.ts); the files that cannot import it carry the same text.
 */
const root = path.resolve(import.meta.dirname, '..', '..');
const read = (rel: string): string => fs.readFileSync(path.join(root, rel), 'utf8');
const flags = DAEMON_NODE_FLAGS.join(' ');

describe('daemon node flags', () => {
  it('the bin shebang, npm start and the Docker image pass them', () => {
    expect(read('bin/zcode-hub.js').split('\n')[0]).toBe(`#!/usr/bin/env -S node ${flags}`);
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(pkg.scripts['start']).toContain(`node ${flags} bin/zcode-hub.js start`);
    expect(read('docker/Dockerfile')).toContain(
      `CMD ["node", ${DAEMON_NODE_FLAGS.map((f) => JSON.stringify(f)).join(', ')}, "/app/bin/zcode-hub.js", "start"]`,
    );
  });

  it('the editor bridge and the benchmarks spawn the daemon with them', () => {
    expect(read('src/bridge/daemon-launcher.ts')).toMatch(/spawn\(process\.execPath, \[\.\.\.DAEMON_NODE_FLAGS, binPath\(\), 'start'/);
    expect(read('bench/lib/daemon-process.ts')).toMatch(/const args = \[\s*\.\.\.DAEMON_NODE_FLAGS,/);
  });
});
