/**
 * `zcode-hub doctor`: pure checks over facts gathered elsewhere (src/doctor/gather.ts), so
 * every rule is unit-testable. Each problem carries a one-line fix.
 */
import type { CliCandidate, CliDetection } from '../backend/cli-candidates.js';
import { sourceLabel } from '../backend/cli-candidates.js';
import { nodeSourceLabel } from '../backend/node-runtime.js';
import { privateRootsProblem } from '../fs/workspace-roots.js';
import type { CliRuntime } from '../ports/backend-port.js';

export type CheckStatus = 'ok' | 'warn' | 'fail';

export interface Check {
  id: string;
  status: CheckStatus;
  message: string;
  /** One line telling the user what to do; present on warn/fail. */
  fix?: string;
  /** More lines under the message (the CLI candidates doctor looked at). */
  details?: string[];
}

export interface DoctorFacts {
  host: string;
  port: number;
  publicUrl?: string;
  tls: boolean;
  allowOrigins: string[];
  backendChoice: 'auto' | 'zcode' | 'sim';
  /** The CLI the daemon uses or would use; undefined when none was found. */
  zcodeCli?: string;
  /** How it was chosen: every candidate looked at, in order (src/backend/cli-candidates.ts). */
  cliDetection?: CliDetection;
  /** Its version and whether the hub was verified against it (docs/APP-SERVER.md §16). */
  cliVersion?: { version?: string; verified: boolean; warning?: string };
  /** The Node.js that runs the CLI and why, or why none fits (src/backend/node-runtime.ts). */
  cliRuntime?: CliRuntime | { error: string };
  /** Backend state when a daemon runs (`ready`, `failed` …); undefined offline. */
  backendState?: string;
  backendKind?: 'zcode' | 'sim';
  backendRestarts?: number;
  stderrTail?: string[];
  stateDir: { path: string; mode?: number };
  /** Secret files and their modes (undefined = missing). */
  secrets: Array<{ path: string; mode?: number }>;
  providerFile: { path: string; exists: boolean; valid: boolean; issues: string[] };
  daemonRunning: boolean;
  /** Workspace roots inside the hub's private files, where start refuses to run; checked offline. */
  privateWorkspaceRoots?: readonly string[];
  pendingInteractions?: number;
  oldestPendingAgeMs?: number;
  clients?: number;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/;

/** True for loopback bind addresses. */
export function isLoopback(host: string): boolean {
  return LOOPBACK.test(host);
}

function modeText(mode: number): string {
  return `0${mode.toString(8)}`;
}

/** Appends one check to the report. */
type AddCheck = (id: string, status: CheckStatus, message: string, fix?: string) => void;

/** Runs every rule; the order is the order a person reads the report in. */
export function runChecks(f: DoctorFacts): Check[] {
  const checks: Check[] = [];
  const add: AddCheck = (id, status, message, fix) => checks.push({ id, status, message, ...(fix ? { fix } : {}) });
  for (const rules of [daemonCheck, cliCheck, backendChecks, exposureChecks, fileChecks, liveChecks]) rules(f, add, checks);
  return checks;
}

/** Whether a daemon runs on this state dir. */
function daemonCheck(f: DoctorFacts, add: AddCheck, _checks: Check[]): void {
  add(
    'daemon',
    f.daemonRunning ? 'ok' : 'warn',
    f.daemonRunning ? `daemon running on ${f.host}:${f.port}` : 'no daemon is running on this state dir',
    f.daemonRunning ? undefined : 'start it with `zcode-hub start` (or `npm start` in a checkout)',
  );
}

/** Which ZCode CLI the backend runs, and why that one (every candidate as details). */
function cliCheck(f: DoctorFacts, _add: AddCheck, checks: Check[]): void {
  const d = f.cliDetection;
  const details = d ? candidateLines(d) : undefined;
  const addCli = (status: CheckStatus, message: string, fix?: string) =>
    checks.push({ id: 'backend.cli', status, message, ...(fix ? { fix } : {}), ...(details ? { details } : {}) });
  const picked = d?.picked;
  if (picked?.entry)
    addCli(
      'ok',
      `ZCode CLI: ${picked.entry} (${sourceLabel(picked.source)}${picked.launch === 'direct' ? ', a single executable' : ''}): ${d?.reason ?? ''}`,
    );
  else if (f.zcodeCli && !d) addCli('ok', `ZCode CLI: ${f.zcodeCli}`);
  else if (d?.candidates[0]?.source === 'explicit')
    addCli(
      'fail',
      `the ZCode CLI ${d.reason}`,
      'point --zcode-cli (or ZCODE_HUB_ZCODE_CLI) at …/resources/glm/zcode.cjs, or drop it to auto-detect',
    );
  else if (f.backendChoice === 'zcode')
    addCli(
      'fail',
      'no ZCode CLI found and --backend zcode forbids the simulator',
      'install ZCode desktop or pass --zcode-cli /path/to/resources/glm/zcode.cjs',
    );
  else
    addCli(
      'warn',
      'no ZCode CLI found: the bundled simulator answers instead',
      'pass --zcode-cli /path/to/resources/glm/zcode.cjs to use the real agent',
    );
}

/** The node the CLI runs on, its version, and the backend's state. */
function backendChecks(f: DoctorFacts, add: AddCheck, _checks: Check[]): void {
  const rt = f.cliRuntime;
  if (rt && 'error' in rt)
    add('backend.node', 'fail', rt.error, 'pass --zcode-node /path/to/node (Node.js 24 or newer), or use --backend sim');
  else if (rt)
    add('backend.node', 'ok', `the ZCode CLI runs on ${rt.path} (Node.js ${rt.version}, ${nodeSourceLabel(rt.source)}): ${rt.reason}`);

  if (f.cliVersion?.verified)
    add('backend.version', 'ok', `ZCode CLI ${f.cliVersion.version ?? ''}: a version this hub was verified against`);
  else if (f.cliVersion)
    add(
      'backend.version',
      'warn',
      f.cliVersion.warning ?? 'the ZCode CLI is a version this hub was not verified against',
      'run `zcode-hub doctor --probe --json probe.json --record-wire probe-wire.ndjson` and send both with `zcode-hub doctor --json` (docs/APP-SERVER.md §15.2)',
    );

  if (f.backendState !== undefined) {
    const tail = f.stderrTail?.slice(-3).join(' | ');
    if (f.backendState === 'failed')
      add(
        'backend.state',
        'fail',
        `backend ${f.backendKind ?? ''} is in 'failed' after ${f.backendRestarts ?? 0} restarts${tail ? `; stderr: ${tail}` : ''}`,
        'fix the cause shown in its stderr, then POST /api/backend/restart or restart the daemon',
      );
    else if (f.backendState === 'ready')
      add('backend.state', 'ok', `backend ${f.backendKind ?? ''} ready (${f.backendRestarts ?? 0} restarts)`);
    else
      add(
        'backend.state',
        'warn',
        `backend ${f.backendKind ?? ''} is ${f.backendState}`,
        'wait a few seconds and run doctor again; see the daemon log if it stays',
      );
  }
}

/** Who can reach the hub: the bind address, TLS, the public URL, the peers. */
function exposureChecks(f: DoctorFacts, add: AddCheck, checks: Check[]): void {
  const exposed = !isLoopback(f.host);
  if (!exposed) add('bind', 'ok', `bound to loopback ${f.host}`);
  else if (f.tls)
    add(
      'bind',
      'warn',
      `bound to ${f.host} (reachable from the network) behind TLS`,
      'prefer --host 127.0.0.1 with a tunnel unless you need LAN access',
    );
  else if (f.publicUrl?.startsWith('https://'))
    add(
      'bind',
      'warn',
      `bound to ${f.host} without TLS: plain HTTP on that address, beside the https tunnel ${f.publicUrl}`,
      'a tunnel needs only --host 127.0.0.1; otherwise pass --tls-cert/--tls-key',
    );
  else
    add(
      'bind',
      'fail',
      `bound to ${f.host} without TLS or an https --public-url: tokens travel in clear text`,
      'bind --host 127.0.0.1 and expose it through a tunnel with --public-url https://…, or pass --tls-cert/--tls-key',
    );

  add('auth', 'ok', 'authentication is always on (admin token + device tokens)');

  if (f.publicUrl && !f.publicUrl.startsWith('https://'))
    add('public-url', 'warn', `public URL ${f.publicUrl} is not https`, 'use an https tunnel URL so phones send their tokens encrypted');

  for (const origin of f.allowOrigins) {
    if (!origin.startsWith('https://') && !/^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?$/.test(origin)) {
      add(
        'origins',
        'warn',
        `allowed origin ${origin} is neither https nor local`,
        `zcode-hub peers remove ${origin} (or drop --peer ${origin}) unless you trust every network between you`,
      );
    }
  }
  if (f.allowOrigins.length > 0 && !checks.some((c) => c.id === 'origins'))
    add('origins', 'ok', `peers (app origins accepted): ${f.allowOrigins.join(', ')}`);
}

/** The state dir, the workspace roots, the secret files and the provider file. */
function fileChecks(f: DoctorFacts, add: AddCheck, checks: Check[]): void {
  if (f.stateDir.mode === undefined)
    add('state-dir', 'warn', `state dir ${f.stateDir.path} does not exist yet`, 'it is created (0700) at first start');
  else if ((f.stateDir.mode & 0o077) !== 0)
    add(
      'state-dir',
      'fail',
      `state dir ${f.stateDir.path} is ${modeText(f.stateDir.mode)} (others can read it)`,
      `chmod 700 ${f.stateDir.path}`,
    );
  else add('state-dir', 'ok', `state dir ${f.stateDir.path} is ${modeText(f.stateDir.mode)}`);

  if (f.privateWorkspaceRoots?.length) {
    const { message, fix } = privateRootsProblem(f.privateWorkspaceRoots, f.stateDir.path);
    add('workspace', 'fail', `${message}: start refuses to run`, fix);
  }

  for (const secret of f.secrets) {
    if (secret.mode === undefined) continue;
    if ((secret.mode & 0o077) !== 0)
      add('secret-mode', 'fail', `${secret.path} is ${modeText(secret.mode)}: readable by other users`, `chmod 600 ${secret.path}`);
  }
  if (!checks.some((c) => c.id === 'secret-mode')) add('secret-mode', 'ok', 'secret files are private (0600)');

  if (!f.providerFile.exists) add('provider-file', 'ok', `no personal provider file at ${f.providerFile.path} (built-in providers only)`);
  else if (f.providerFile.valid) add('provider-file', 'ok', `provider file ${f.providerFile.path} is valid`);
  else
    add(
      'provider-file',
      'fail',
      `provider file ${f.providerFile.path} is invalid, so the agent ignores ALL personal providers: ${f.providerFile.issues.slice(0, 3).join('; ')}`,
      'fix it in the web app settings or restore a backup (GET /api/settings/providers shows the issues)',
    );
}

/** What the running daemon reports: pending interactions and connected clients. */
function liveChecks(f: DoctorFacts, add: AddCheck, _checks: Check[]): void {
  if (f.pendingInteractions !== undefined) {
    const age = f.oldestPendingAgeMs ?? 0;
    if (f.pendingInteractions > 0 && age > 10 * 60_000)
      add(
        'interactions',
        'warn',
        `${f.pendingInteractions} interaction(s) pending, the oldest for ${Math.round(age / 60_000)} min`,
        'answer them in the web app inbox or `GET /api/interactions`',
      );
    else add('interactions', 'ok', `${f.pendingInteractions} interaction(s) pending`);
  }
  if (f.clients !== undefined) add('clients', 'ok', `${f.clients} client(s) connected`);
}

/** One line per candidate: `  1. found    zcode on PATH: /usr/bin/zcode — a link to … ← picked`. */
export function candidateLines(d: CliDetection): string[] {
  const width = Math.max(...['found', 'missing', 'not-runnable'].map((s) => s.length));
  return d.candidates.map((c: CliCandidate, i) => {
    const mark = c === d.picked || (d.picked && c.path === d.picked.path && c.source === d.picked.source) ? '  ← picked' : '';
    return `${String(i + 1).padStart(2)}. ${c.status.padEnd(width)} ${sourceLabel(c.source)}: ${c.path} — ${c.note}${mark}`;
  });
}

/** Human report: one line per check, its details indented under it, and the fix under each problem. */
export function formatReport(checks: Check[]): string {
  const icon: Record<CheckStatus, string> = { ok: 'ok  ', warn: 'WARN', fail: 'FAIL' };
  const detail = (c: Check) => (c.details?.length ? `\n${c.details.map((l) => `     ${l}`).join('\n')}` : '');
  return `${checks.map((c) => `${icon[c.status]} ${c.message}${detail(c)}${c.fix ? `\n     fix: ${c.fix}` : ''}`).join('\n')}\n`;
}

/** Exit code: 1 when anything failed, else 0 (warnings do not fail). */
export function exitCodeFor(checks: Check[]): number {
  return checks.some((c) => c.status === 'fail') ? 1 : 0;
}
