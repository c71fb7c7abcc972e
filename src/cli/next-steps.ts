import os from 'node:os';
import path from 'node:path';
import type { BackendPort, BackendStatus } from '../ports/backend-port.js';
import { isLoopbackUrl } from './pair-advice.js';

export interface NextStepsFacts {
  url: string;
  stateDir: string;
  /** The admin token's file when it comes from a secret; otherwise the state dir's admin.token. */
  adminTokenFile?: string;
  backend: Pick<BackendStatus, 'kind' | 'state'>;
  /** What --backend asked for. */
  choice: 'auto' | 'zcode' | 'sim';
}

/** The human-readable block `zcode-hub start` prints once the hub is up: what to do next. Pure. */
export function nextStepsText(facts: NextStepsFacts): string {
  const defaultDir = path.join(os.homedir(), '.zcode-hub');
  const dirFlag = path.resolve(facts.stateDir) === defaultDir ? '' : ` --state-dir ${facts.stateDir}`;
  const tokenFile = facts.adminTokenFile ?? path.join(facts.stateDir, 'admin.token');
  const agent =
    facts.backend.state === 'failed'
      ? 'the agent could not start: run zcode-hub doctor'
      : facts.backend.kind === 'zcode'
        ? 'the ZCode CLI'
        : facts.choice === 'sim'
          ? 'the bundled simulator (--backend sim)'
          : 'the bundled simulator (no ZCode CLI found; --zcode-cli PATH names one)';
  const lines = [
    '',
    `zcode-hub is running at ${facts.url}, on ${agent}.`,
    `  Admin token:       ${tokenFile}   (secret; it signs in any client as admin)`,
    `  Pair a phone:      zcode-hub pair${dirFlag}   (a one-time code, a link and a QR code)`,
  ];
  if (isLoopbackUrl(facts.url))
    lines.push(
      '                     this address is only reachable from this computer: for a phone, a LAN address',
      '                     (--host 0.0.0.0 --public-url …) or a tunnel; zcode-hub pair explains both.',
    );
  lines.push(
    `  Editors:           zcode-hub acp${dirFlag}   (an ACP agent on stdio; see the README, "Editors")`,
    `  Check it:          zcode-hub doctor${dirFlag}`,
    '  Stop it:           Ctrl-C (or SIGTERM).',
    '',
  );
  return lines.join('\n');
}

/** Resolves with the backend's first settled status (ready or failed) after the daemon starts. */
export function firstSettledStatus(backend: Pick<BackendPort, 'status' | 'onStatus'>): Promise<BackendStatus> {
  return new Promise((resolve) => {
    const settled = (s: BackendStatus) => s.state === 'ready' || s.state === 'failed';
    const now = backend.status();
    if (settled(now)) {
      resolve(now);
      return;
    }
    const off = backend.onStatus((s) => {
      if (!settled(s)) return;
      off();
      resolve(s);
    });
  });
}
