/**
 * `zcode-hub doctor --probe` end to end (docs/APP-SERVER.md §15): the backend the start flags
 * choose, spawned as the probe's own child in a temporary state dir, data dir and workspace (so
 * neither the running daemon's child nor the user's sessions are touched), the scripted
 * conversation through the hub's typed client, and the report.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AppServerClient } from '../app-server/client.js';
import { createBackend, PROBE_METHOD, REVERSE_METHODS, TappedTransport, type TransportTap } from '../backend/index.js';
import { providerFileSecrets, redactWire } from '../backend/wire-redact.js';
import type { HubConfig } from '../config/schema.js';
import type { Logger } from '../logger.js';
import type { BackendPort, BackendRequestOptions } from '../ports/backend-port.js';
import { VERSION } from '../version.js';
import { runProbe } from './probe.js';
import { providerFileHealth } from './gather.js';
import { isProviderComplete, validateProviderDocument, type ProviderRule } from '../settings/provider-schema.js';
import { reverseRequestRows } from './probe-check.js';
import { NotificationWatch } from './probe-events.js';
import { verdictOf, type ProbeReport, type ProbeRow } from './probe-report.js';

/** Child stderr lines the report keeps. */
const STDERR_LINES = 20;

export interface ProbeRunOptions {
  /** The configuration `start` would run with (its flags); only the backend choice and limits are used. */
  config: HubConfig;
  logger: Logger;
  /** False skips the prompts (`--probe-no-prompt`). */
  prompt: boolean;
  /** The environment the child's is filtered from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Abandons the probe (the daemon shuts down): its child is stopped, the rows left read missing, the scratch is removed. */
  signal?: AbortSignal;
}

/** What the link knows about its child, in a phrase. */
function exitNote(link: BackendPort): string {
  const s = link.status();
  const exit = s.lastExit;
  if (!exit) return `the backend is ${s.state}`;
  return `the backend is ${s.state}; it exited with code ${String(exit.code)}, signal ${String(exit.signal)}${exit.reason ? ` (${exit.reason})` : ''}`;
}

/**
 * Why a prompt cannot run against the real CLI, or undefined when it can: the hub answers no
 * provider runtime headers (§6.4), so only a complete, enabled personal provider can run a turn
 * (§9.2). The simulator's own models always can.
 */
export function promptSkipReason(kind: 'zcode' | 'sim', providerFile: string): string | undefined {
  if (kind === 'sim') return undefined;
  const health = providerFileHealth(providerFile);
  if (!health.exists) return `no provider is configured (no ${providerFile}): add one in the web app's settings to probe a prompt`;
  if (!health.valid)
    return `the provider file ${providerFile} is invalid, so the agent has no personal provider (zcode-hub doctor shows why)`;
  const rules = personalProviderRules(providerFile);
  if (!rules.some((r) => r.enabled !== false && isProviderComplete(r)))
    return `no complete, enabled provider in ${providerFile}: add one in the web app's settings to probe a prompt`;
  return undefined;
}

/** The personal provider rules of a valid file ([] otherwise). */
function personalProviderRules(file: string): ProviderRule[] {
  try {
    const doc: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    const r = validateProviderDocument(doc);
    return r.ok ? r.value.config.providerConfigRules.providerRules : [];
  } catch {
    return [];
  }
}

/** Resolves once the link left `starting` (a child killed for a failed liveness probe exits just after start() resolved), or after `ms`. */
function startSettled(link: BackendPort, ms: number): Promise<void> {
  if (link.status().state !== 'starting') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      off();
      resolve();
    };
    const timer = setTimeout(done, ms);
    const off = link.onStatus((s) => {
      if (s.state !== 'starting') done();
    });
  });
}

/** Spawns the backend in scratch directories, runs the probe, stops the child, removes the scratch. Throws BackendConfigError when the flags name no usable backend. */
export async function probeBackend(options: ProbeRunOptions): Promise<ProbeReport> {
  const { scratch, workspace, config, env } = scratchRun(options);
  const limits = options.config.limits;
  try {
    const { asked, reverseTap } = reverseRequestCounter();
    const link = createBackend(config, options.logger, { env, taps: [reverseTap] });
    const watch = new NotificationWatch();
    link.onNotification((n) => watch.accept(n));
    link.setInteractionHandler(() => Promise.reject(new Error('zcode-hub doctor --probe answers no permission or question')));
    const rows: ProbeRow[] = [];
    const abandon = () => {
      watch.close();
      void link.close();
    };
    options.signal?.addEventListener('abort', abandon, { once: true });
    if (options.signal?.aborted) abandon();
    try {
      await link.start();
      await startSettled(link, limits.stopGraceMs);
      const ready = link.status().state === 'ready';
      rows.push({
        step: PROBE_METHOD,
        expectation: `the app-server answers its liveness probe within ${limits.backendStartTimeoutMs} ms (§1.1)`,
        outcome: ready ? 'ok' : 'missing',
        ...(ready ? {} : { detail: exitNote(link) }),
      });
      if (ready) {
        const { tapped, raws } = boundedRequests(link, limits.probeStepTimeoutMs);
        rows.push(
          ...(await runProbe({
            app: new AppServerClient(tapped),
            lastRaw: (method) => raws.get(method),
            watch,
            workspace,
            stepTimeoutMs: limits.probeStepTimeoutMs,
            turnTimeoutMs: limits.probeTurnTimeoutMs,
            exitNote: () => exitNote(link),
            prompt: options.prompt
              ? (promptSkipReason(link.status().kind, options.config.providerFile) ?? true)
              : 'not asked (--probe-no-prompt)',
          })),
        );
        if (rows.some((r) => r.step === 'session/create' && r.outcome === 'ok'))
          rows.push(...reverseRequestRows(asked, Object.values(REVERSE_METHODS), REVERSE_METHODS.runtimePreferences));
      }
    } finally {
      options.signal?.removeEventListener('abort', abandon);
      watch.close();
      await link.close();
    }
    const status = link.status();
    // The report is meant for a bug report: the child's stderr and quoted values lose the provider file's secrets.
    const secrets = providerFileSecrets(options.config.providerFile);
    return {
      hub: VERSION,
      backend: {
        kind: status.kind,
        ...(status.command ? { entry: status.command } : {}),
        ...(status.cliVersion ? { cliVersion: status.cliVersion } : {}),
        ...(status.cliRuntime ? { runtime: status.cliRuntime } : {}),
      },
      verdict: verdictOf(rows),
      rows: rows.map((r) => (r.detail === undefined ? r : { ...r, detail: String(redactWire(r.detail, secrets)) })),
      stderrTail: link
        .stderrTail()
        .slice(-STDERR_LINES)
        .map((l) => String(redactWire(l, secrets))),
    };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** The probe's own scratch directories (state, workspace, the agent's data) and the config that points the child there. */
function scratchRun(options: ProbeRunOptions) {
  // The real path: the child may resolve symlinks (macOS /var → /private/var) and lists by exact path (§11.21).
  const scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-hub-probe-')));
  const workspace = path.join(scratch, 'workspace');
  fs.mkdirSync(workspace);
  const limits = options.config.limits;
  const config: HubConfig = {
    ...options.config,
    stateDir: path.join(scratch, 'state'),
    workspace,
    workspaces: [workspace],
    // One crash is the probe's answer, not a reason to respawn (backend-link.ts crash loop); no
    // request, the link's own resume-and-retry included, waits longer than a step may.
    limits: {
      ...limits,
      crashLoopCount: 1,
      forwardRequestTimeoutMs: Math.min(limits.forwardRequestTimeoutMs, limits.probeStepTimeoutMs),
      sessionOpenTimeoutMs: Math.min(limits.sessionOpenTimeoutMs, limits.probeStepTimeoutMs),
    },
  };
  const env = { ...(options.env ?? process.env), ZCODE_DATA_BASE_DIR: path.join(scratch, 'data') };
  return { scratch, workspace, config, env };
}

/** Which reverse requests the child makes (the link answers them; the probe only counts them). */
function reverseRequestCounter() {
  const asked = new Map<string, number>();
  const reverseTap: TransportTap = {
    wrap: (t) =>
      new TappedTransport(t, {
        in: (m) => {
          if (m.kind === 'request') asked.set(m.method, (asked.get(m.method) ?? 0) + 1);
        },
      }),
    close: () => undefined,
  };
  return { asked, reverseTap };
}

/** The link's requests, each bounded by the probe's step timeout, keeping each raw answer (for the value a row quotes). */
function boundedRequests(link: Pick<BackendPort, 'request'>, stepTimeoutMs: number) {
  const raws = new Map<string, unknown>();
  const tapped = {
    request: async (method: string, params?: unknown, o: BackendRequestOptions = {}) => {
      raws.delete(method);
      const result = await link.request(method, params, { ...o, timeoutMs: Math.min(o.timeoutMs ?? Infinity, stepTimeoutMs) });
      raws.set(method, result);
      return result;
    },
  };
  return { tapped, raws };
}
