import { describe, expect, it } from 'vitest';
import { baseKeyRepeats } from './log-base-keys.js';
import { readRepoFile, treeFiles } from './tree-files.js';

/** No log line of the daemon repeats a key pino writes itself (STYLE.md habit 7: one pino logger). */
describe('log lines name their own fields apart from pino’s', () => {
  it('no log call or child logger in src/ repeats pid, hostname, level, time or msg', () => {
    const files = treeFiles(['src']).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((f) => baseKeyRepeats(f, readRepoFile(f)))).toEqual([]);
  });

  it('catches a repeat in a log call, a shorthand property and a child’s bindings; other calls and keys pass', () => {
    const text = [
      "log.info({ pid: child.pid, epoch }, 'backend spawned');",
      'this.log.warn({ pid }, "x");',
      "logger.child({ component: 'x', hostname: 'h' });",
      "log.info({ childPid: child.pid, daemonPid: 2 }, 'fine');",
      'this.setStatus({ pid: undefined });',
      "log.info('no object');",
      "log.error({ err: { message: 'a, pid: b', pid: 3 }, 'msg': 'x' }, 'nested and quoted');",
    ].join('\n');
    expect(baseKeyRepeats('sample.ts', text)).toEqual(['sample.ts:1 pid', 'sample.ts:2 pid', 'sample.ts:3 hostname', 'sample.ts:7 msg']);
  });
});
