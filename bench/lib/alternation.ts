/**
 * What bench/alternate.ts needs besides processes: the arms it alternates (each a name and the
 * environment its runs add), the order they run in each round, the figure one run produced, and
 * the summary of every arm's figures. A difference of a few per cent between two settings cannot be
 * read from one run each on this kind of machine (BENCHMARKS.md): it takes several runs of each,
 * taken in turn so that both meet the same minutes, and the count of rounds each arm came out lower in.
 */
import { z } from 'zod';
import { median, round, spread } from './scenario.js';

/** One setting under test: its name and the variables its runs get on top of the caller's environment. */
export interface Arm {
  name: string;
  env: Record<string, string>;
}

const ARM_NAME = /^[\w.-]+$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * `--arm` values, in the order given: `<name>` (an arm that adds nothing) or `<name>:<VAR>=<value>`.
 * A name given again adds its variable to the same arm, so a value may hold spaces and `=` and an
 * arm may set several variables. At least two arms; a variable set twice in one arm is refused.
 */
export function parseArms(specs: readonly string[]): Arm[] {
  const arms: Arm[] = [];
  for (const spec of specs) {
    const colon = spec.indexOf(':');
    const name = colon < 0 ? spec : spec.slice(0, colon);
    if (!ARM_NAME.test(name)) throw new Error(`--arm ${JSON.stringify(spec)}: a name is letters, digits, '_', '.' or '-'`);
    let arm = arms.find((a) => a.name === name);
    if (arm === undefined) {
      arm = { name, env: {} };
      arms.push(arm);
    }
    if (colon < 0) continue;
    const assignment = spec.slice(colon + 1);
    const eq = assignment.indexOf('=');
    const key = eq < 0 ? assignment : assignment.slice(0, eq);
    if (eq < 0 || !ENV_NAME.test(key)) throw new Error(`--arm ${JSON.stringify(spec)}: expected <name>:<VAR>=<value>`);
    if (Object.hasOwn(arm.env, key)) throw new Error(`--arm ${name} sets ${key} twice`);
    arm.env[key] = assignment.slice(eq + 1);
  }
  if (arms.length < 2) throw new Error('give at least two arms (--arm <name>[:<VAR>=<value>], repeated)');
  return arms;
}

/** The order of round `index` (from 0): the arms rotated by one each round, so each goes first as often as the others. */
export function roundOrder<T>(arms: readonly T[], index: number): T[] {
  const k = index % arms.length;
  return [...arms.slice(k), ...arms.slice(0, k)];
}

const resultSchema = z.looseObject({
  id: z.string(),
  unit: z.string(),
  runs: z.number(),
  // null when no run produced a figure (JSON has no NaN).
  value: z.number().nullable(),
  ratio: z.number().optional(),
  errors: z.array(z.string()).optional(),
});

/** One run's figure, from the bench/results file it wrote: its ratio to the baseline when it has one, else its value. */
export interface RunFigure {
  figure: number;
  /** `ratio` (hub / baseline, measured in the same run) or the scenario's unit. */
  unit: string;
}

/** Reads a one-run result file's figure; a run that produced none (it failed) throws with its error. */
export function figureOf(result: unknown): RunFigure {
  const r = resultSchema.parse(result);
  if (r.runs < 1 || r.value === null) throw new Error(`${r.id} produced no figure: ${r.errors?.join('; ') ?? 'no error recorded'}`);
  return r.ratio === undefined ? { figure: r.value, unit: r.unit } : { figure: r.ratio, unit: 'ratio' };
}

export interface ArmSummary {
  name: string;
  /** In the order the rounds ran. */
  figures: number[];
  median: number;
  low: number;
  high: number;
  /** Rounds in which this arm's figure was the lowest of all arms (a tie counts for none). */
  lowestIn: number;
}

/** Every arm's figures over the rounds (`rounds[i][name]`: that arm's figure in round i). */
export function summariseArms(names: readonly string[], rounds: ReadonlyArray<Readonly<Record<string, number>>>): ArmSummary[] {
  return names.map((name) => {
    const figures = rounds.map((r) => r[name]).filter((f): f is number => f !== undefined);
    const [low, high] = spread(figures) ?? [Number.NaN, Number.NaN];
    const lowestIn = rounds.filter((r) => {
      const mine = r[name];
      return mine !== undefined && names.every((other) => other === name || (r[other] ?? Infinity) > mine);
    }).length;
    return { name, figures, median: round(median(figures), 3), low, high, lowestIn };
  });
}

/** The summary as the Markdown table BENCHMARKS.md quotes. */
export function alternationMarkdown(scenario: string, unit: string, arms: readonly Arm[], summary: readonly ArmSummary[]): string {
  const rounds = Math.max(0, ...summary.map((s) => s.figures.length));
  const lines = [
    `${scenario}, ${rounds} round(s) of one run per arm, taken in turn (${unit}; "lowest in": the rounds its figure was the lowest):`,
    '',
    '| arm | environment | figures, in round order | median | spread | lowest in |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const s of summary) {
    const env = arms.find((a) => a.name === s.name)?.env ?? {};
    const shown = Object.entries(env)
      .map(([k, v]) => `\`${k}=${v}\``)
      .join(' ');
    lines.push(
      `| ${s.name} | ${shown || '(as given)'} | ${s.figures.join(' · ')} | ${s.median} | ${s.low}–${s.high} | ${s.lowestIn} of ${rounds} |`,
    );
  }
  return lines.join('\n');
}
