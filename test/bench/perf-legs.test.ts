import { describe, expect, it } from 'vitest';
import { keyOf, legProfileTable, parsePerfScript, splitByLegs, type PerfSample } from '../../bench/lib/perf-legs.js';

/**
 * bench/lib/perf-legs.ts on `perf script -F time,period,ip,sym,dso` text as perf 6 prints it (a
 * jitdump-injected recording: JavaScript frames in jitted-*.so files, node's own in /usr/bin/node).
 */
const SCRIPT = [
  // A hub write: JavaScript → node's native write → the kernel's write system call.
  '100.500000:     250000 ',
  '\tffffffff8223b7b0 tcp_sendmsg ([kernel.kallsyms])',
  '\tffffffff81000130 ksys_write ([kernel.kallsyms])',
  '\tffffffff8223b7b0 do_syscall_64 ([kernel.kallsyms])',
  '\tffffffff81000130 entry_SYSCALL_64_after_hwframe ([kernel.kallsyms])',
  '\t           86193 __GI___libc_write (/usr/lib/x86_64-linux-gnu/libc.so.6)',
  '\t          9dd94f node::LibuvStreamWrap::DoTryWrite(uv_buf_t**, unsigned long*) (/usr/bin/node)',
  '\t             726 JS:*Socket._write node:net:969:35 (/srv/zcode-hub/jitted-2625-15376.so)',
  '\t             144 JS:*flushBatch file:///srv/zcode-hub/dist/gateway/client-connection.js:181:15 (/srv/zcode-hub/jitted-2625-1.so)',
  '',
  // The hub's own JavaScript, on top.
  '101.000000:     250000 ',
  '\t             1511 JS:*sendFrame file:///srv/zcode-hub/dist/gateway/client-connection.js:125:14 (/srv/zcode-hub/jitted-2625-15494.so)',
  '\t             103 Builtin:JSEntry (/srv/zcode-hub/jitted-2625-3379.so)',
  '',
  // The event loop's poll, no JavaScript on the stack.
  '101.500000:     500000 ',
  '\tffffffff813aeb13 __x64_sys_epoll_pwait ([kernel.kallsyms])',
  '\t          14c05fb uv__io_poll (/usr/bin/node)',
  '\t          14ac8a7 uv_run (/usr/bin/node)',
  '',
  // The baseline's flush.
  '200.250000:     250000 ',
  '\t             3ff JS:*flushAll file:///srv/zcode-hub/bench/lib/bare-fanout.ts:1:226 (/srv/zcode-hub/jitted-2625-16184.so)',
  '',
  // Between legs: counted nowhere.
  '150.000000:     250000 ',
  '\t             3ff JS:*flushAll file:///srv/zcode-hub/bench/lib/bare-fanout.ts:1:226 (/srv/zcode-hub/jitted-2625-16184.so)',
];

const WINDOWS = { hub: [{ from: 100, to: 102 }], baseline: [{ from: 200, to: 201 }] };

describe('perf-legs: a recording split by the legs of a B-COST-TEAM run', () => {
  it('reads every sample with its time, period and call chain, innermost frame first', () => {
    const samples = [...parsePerfScript(SCRIPT)];
    expect(samples.map((s) => [s.time, s.period, s.frames.length])).toEqual([
      [100.5, 250_000, 8],
      [101, 250_000, 2],
      [101.5, 500_000, 3],
      [200.25, 250_000, 1],
      [150, 250_000, 1],
    ]);
    expect(samples[0]?.frames[0]).toEqual({ sym: 'tcp_sendmsg', dso: '[kernel.kallsyms]' });
  });

  it('names a sample by its innermost JavaScript function, its own frame, or its system call', () => {
    const [write, own, poll] = [...parsePerfScript(SCRIPT)] as PerfSample[];
    expect(keyOf(write as PerfSample, 'js')).toBe('JS:*Socket._write node:net:969:35');
    expect(keyOf(write as PerfSample, 'self')).toBe('tcp_sendmsg [k]');
    expect(keyOf(write as PerfSample, 'syscall')).toBe('ksys_write');
    expect(keyOf(own as PerfSample, 'syscall')).toBe('(user)');
    expect(keyOf(poll as PerfSample, 'js')).toBe('(outside JS) uv__io_poll');
    // A stack cut short of its entry: its outermost kernel frame.
    expect(keyOf(poll as PerfSample, 'syscall')).toBe('__x64_sys_epoll_pwait [k]');
    expect(keyOf({ time: 0, period: 1, frames: [] }, 'js')).toBe('(no stack)');
  });

  it('sums CPU time (the periods) by side as ms per second of leg, leaving out samples between legs', () => {
    const profile = splitByLegs(parsePerfScript(SCRIPT), WINDOWS, 'js');
    expect(profile.seconds).toEqual({ hub: 2, baseline: 1 });
    // 1 ms of hub samples over its 2 s of legs; 0.25 ms over the baseline's 1 s.
    expect(profile.msPerS.hub?.get('all')).toBeCloseTo(0.5);
    expect(profile.msPerS.hub?.get('(outside JS) uv__io_poll')).toBeCloseTo(0.25);
    expect(profile.msPerS.baseline?.get('all')).toBeCloseTo(0.25);
    expect(profile.msPerS.baseline?.get('JS:*flushAll file:///srv/zcode-hub/bench/lib/bare-fanout.ts:1:226')).toBeCloseTo(0.25);
  });

  it('tabulates the largest differences after the total, as Markdown', () => {
    const table = legProfileTable(splitByLegs(parsePerfScript(SCRIPT), WINDOWS, 'js'), ['hub', 'baseline'], 2).split('\n');
    expect(table[0]).toBe('| hub ms/s | baseline ms/s | difference | key |');
    expect(table[2]).toBe('| 0.50 | 0.25 | 0.25 | all |');
    // Two keys tie at 0.25; the poll's 0.25 and the baseline's −0.25 lead, the 0.125s are cut.
    expect(table).toHaveLength(5);
    expect(table.slice(3).every((row) => /\| (0\.25|-0\.25) \|/.test(row))).toBe(true);
  });
});
