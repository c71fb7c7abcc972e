/**
 * The report of `zcode-hub doctor --probe` (docs/APP-SERVER.md §15): one row per expectation
 * the hub has of the app-server, its outcome, a verdict, and the same as JSON for a bug report.
 */

/** `ok`: as the hub expects; `differs`: answered, but not as the hub reads it; `missing`: no answer (or -32601); `skipped`: not run, and why. */
export type ProbeOutcome = 'ok' | 'differs' | 'missing' | 'skipped';

export interface ProbeRow {
  /** The step of the scripted conversation (`session/create`, `prompt`, …). */
  step: string;
  /** What the hub expects, in words. */
  expectation: string;
  outcome: ProbeOutcome;
  /** For `differs`: the field path (`result.session.title`) and what was seen; for `missing`/`skipped`: why. */
  detail?: string;
}

export interface ProbeReport {
  /** The hub's version. */
  hub: string;
  /** `runtime`: the Node.js that ran the CLI and why (node-runtime.ts). */
  backend: { kind: 'zcode' | 'sim'; entry?: string; cliVersion?: CliVersion; runtime?: CliRuntime };
  /** `pass` when no row differs or is missing. */
  verdict: 'pass' | 'fail';
  rows: ProbeRow[];
  /** The child's last stderr lines (redacted by nobody: the child's own log). */
  stderrTail: string[];
}

import type { CliRuntime, CliVersion } from '../ports/backend-port.js';

/** The verdict of a set of rows. */
export function verdictOf(rows: readonly ProbeRow[]): ProbeReport['verdict'] {
  return rows.some((r) => r.outcome === 'differs' || r.outcome === 'missing') ? 'fail' : 'pass';
}

const LABEL: Record<ProbeOutcome, string> = { ok: 'ok', differs: 'DIFFERS', missing: 'MISSING', skipped: 'skipped' };

/** The human table: one row per line, `step · expectation · outcome`, the detail indented under it. */
export function formatProbeReport(report: ProbeReport): string {
  const stepWidth = Math.min(28, Math.max(...report.rows.map((r) => r.step.length), 4));
  const b = report.backend;
  const what = b.kind === 'sim' ? 'bundled simulator' : `ZCode CLI${b.cliVersion?.version ? ` ${b.cliVersion.version}` : ''}`;
  const lines = [`probe of the ${what}${b.entry ? ` (${b.entry})` : ''}`];
  if (b.runtime) lines.push(`run on ${b.runtime.path} (Node.js ${b.runtime.version}): ${b.runtime.reason}`);
  if (b.cliVersion?.warning) lines.push(`note: ${b.cliVersion.warning}`);
  for (const row of report.rows) {
    lines.push(`${LABEL[row.outcome].padEnd(8)} ${row.step.padEnd(stepWidth)}  ${row.expectation}`);
    if (row.detail) lines.push(`${' '.repeat(9 + stepWidth + 2)}${row.detail}`);
  }
  const count = (o: ProbeOutcome) => report.rows.filter((r) => r.outcome === o).length;
  const summary = `${count('ok')} ok, ${count('differs')} differ, ${count('missing')} missing, ${count('skipped')} skipped`;
  lines.push(
    report.verdict === 'pass'
      ? `verdict: pass — the hub works with this app-server (${summary})`
      : `verdict: FAIL — ${summary}; send the --json file (and a --record-wire file) with your bug report (docs/APP-SERVER.md §15)`,
  );
  if (report.verdict === 'fail' && report.stderrTail.length > 0)
    lines.push('child stderr (last lines):', ...report.stderrTail.slice(-5).map((l) => `  ${l}`));
  return `${lines.join('\n')}\n`;
}
