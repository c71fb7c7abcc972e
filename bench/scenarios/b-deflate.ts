import path from 'node:path';
import { AcpProbe } from '../lib/acp-probe.js';
import { DaemonProcess, repoRoot } from '../lib/daemon-process.js';
import { contextMemoryKiB, DEFLATE_SETTINGS, meterSequence } from '../lib/deflate-meter.js';
import { recordOneTurn, seedSessions } from '../lib/long-history.js';
import { median, round, type Scenario } from '../lib/scenario.js';
import { NETWORKS, phoneSessionTurns } from './b-phone.js';

/**
 * What the web app asked for on opening a chat when B-DEFLATE was recorded (web/src/limits.ts:
 * now `firstHistoryPage`, 12, then pages of `historyPage`, 30); kept so the figures compare.
 */
const WEB_PAGE = 30;
/** Each setting meters each sequence this many times, alternating settings; the median is kept. */
const REPEATS = 3;
/** Connections whose compressors are held at once to measure one's memory. */
const CONTEXTS = 100;

const GC_ARGS = ['--expose-gc', '--require', path.join(repoRoot, 'bench', 'lib', 'gc-preload.cjs')];

/** Milliseconds `bytes` take to arrive at slow-4G's emulated download rate (b-phone.ts), latency left out. */
const slow4gMs = (bytes: number) => round((bytes / NETWORKS['slow-4g'].downloadThroughput) * 1000, 0);

/**
 * B-DEFLATE: what WebSocket permessage-deflate would save and cost on a phone's traffic. A daemon
 * holds a 200-turn session (one real default-scenario turn copied, as B-LONG does); a client
 * captures the frames of the web app's open (`session/list`, then `session/load` with the web's
 * 30-message page) and of one streamed default-scenario turn it watches while another client
 * prompts. Each sequence is then compressed as ws's server-side PerMessageDeflate would do it on
 * one connection (bench/lib/deflate-meter.ts), for each setting: bytes on the wire, compression
 * time per frame per client (median of 3, settings alternating), and the memory one connection's
 * compressor keeps with context takeover. The value is the share of the turn's bytes the best
 * setting saves.
 */
export const bDeflate: Scenario = {
  id: 'B-DEFLATE',
  proves: [],
  goal: 'permessage-deflate on a phone session open and a streamed turn: bytes saved, CPU per client per update, memory per connection',
  unit: '% of turn bytes saved',
  runs: 1,
  passes: () => true,
  async run(_i, log) {
    const turns = phoneSessionTurns();
    const template = await recordOneTurn();
    let ids: string[] = [];
    const d = await DaemonProcess.spawn({
      nodeArgs: GC_ARGS,
      seed: (root) => {
        ids = seedSessions(root, template, 1, turns);
      },
    });
    const probes: AcpProbe[] = [];
    try {
      await d.waitHealthy(true);
      const sessionId = ids[0]!;
      const phone = await AcpProbe.open(d.wsUrl, d.adminToken);
      const operator = await AcpProbe.open(d.wsUrl, d.adminToken);
      probes.push(phone, operator);
      let stop = phone.capture();
      await phone.request('session/list', {});
      await phone.request('session/load', { sessionId, cwd: d.workspace, mcpServers: [], _meta: { zcode: { limit: WEB_PAGE } } });
      const open = stop();
      await operator.request('session/load', { sessionId, cwd: d.workspace, mcpServers: [], _meta: { zcode: { limit: 1 } } });
      stop = phone.capture();
      await operator.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'explain the project layout' }] });
      // The phone hears the turn's end after the operator's answer: wait until its frames stop growing.
      let seen = -1;
      while (seen !== phone.frames) {
        seen = phone.frames;
        await new Promise((r) => setTimeout(r, 500));
      }
      const turn = stop();
      const sequences = { open, turn };
      const rows: Array<Record<string, unknown>> = [];
      for (const [name, frames] of Object.entries(sequences)) {
        const cpu = new Map<string, number[]>();
        const bytes = new Map<string, number>();
        for (let r = 0; r < REPEATS; r++)
          for (const s of DEFLATE_SETTINGS) {
            const m = await meterSequence(frames, s);
            bytes.set(s.name, m.wireBytes);
            cpu.set(s.name, [...(cpu.get(s.name) ?? []), m.cpuUsPerFrame]);
          }
        const off = bytes.get('off')!;
        for (const s of DEFLATE_SETTINGS) {
          const b = bytes.get(s.name)!;
          const row = {
            sequence: name,
            frames: frames.length,
            setting: s.name,
            wireBytes: b,
            savedPct: round((1 - b / off) * 100, 1),
            slow4gMs: slow4gMs(b),
            cpuUsPerFramePerClient: round(median(cpu.get(s.name)!), 1),
          };
          log(JSON.stringify(row));
          rows.push(row);
        }
      }
      const sample = turn.reduce((a, b) => (b.length > a.length ? b : a), Buffer.alloc(0));
      const memKiB = round(await contextMemoryKiB(sample, CONTEXTS), 1);
      const smallMemKiB = round(await contextMemoryKiB(sample, CONTEXTS, true), 1);
      log(`compressor memory with context takeover: ${memKiB} KiB per connection, ${smallMemKiB} KiB small (${CONTEXTS} held)`);
      const best = Math.max(...rows.filter((r) => r.sequence === 'turn').map((r) => r.savedPct as number));
      return {
        value: best,
        extra: { turns, webPage: WEB_PAGE, rows, contextMemoryKiB: memKiB, smallContextMemoryKiB: smallMemKiB },
      };
    } finally {
      for (const p of probes) p.close();
      await d.stop();
    }
  },
};
