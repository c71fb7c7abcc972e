import { spawn } from 'node:child_process';
import { DaemonProcess } from '../lib/daemon-process.js';
import { nowMs } from '../lib/load-socket.js';
import { round, type Scenario } from '../lib/scenario.js';

/** The bare baseline: `node -e` with an http server on port 0 that prints its port. */
const BARE_SERVER =
  "const s=require('http').createServer((q,r)=>r.end('ok'));s.listen(0,'127.0.0.1',()=>process.stdout.write(s.address().port+'\\n'))";

async function bareStartMs(): Promise<number> {
  const t0 = nowMs();
  const child = spawn(process.execPath, ['-e', BARE_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString('utf8');
        if (out.includes('\n')) resolve(Number(out.trim()));
      });
      child.once('exit', () => reject(new Error('bare server exited')));
    });
    while (true) {
      const res = await fetch(`http://127.0.0.1:${port}/`).catch(() => undefined);
      if (res?.status === 200) {
        await res.arrayBuffer();
        return nowMs() - t0;
      }
      await new Promise((r) => setTimeout(r, 2));
    }
  } finally {
    child.kill('SIGKILL');
  }
}

/** B-START: process start → `/api/health` 200 with the simulator backend, beside a bare `node -e` http server. */
export const bStart: Scenario = {
  id: 'B-START',
  proves: ['B-START'],
  goal: 'process start → /api/health 200 (simulator backend) < 1.5 s',
  unit: 'ms',
  runs: 5,
  passes: (s) => s.value < 1500,
  async run() {
    const bare = await bareStartMs();
    const d = await DaemonProcess.spawn({ logLevel: 'warn' });
    try {
      const healthyAt = await d.waitHealthy(false);
      const readyAt = await d.waitHealthy(true);
      return {
        value: round(healthyAt - d.spawnedAt, 1),
        baseline: round(bare, 1),
        extra: { backendReadyMs: round(readyAt - d.spawnedAt, 1) },
      };
    } finally {
      await d.stop();
    }
  },
};
