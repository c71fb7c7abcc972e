import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/**
 * axe-core's browser bundle as it is shipped, run in the page through the debugger protocol: the
 * app's CSP (script-src 'self') refuses an injected <script>, and must stay on while we test.
 */
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** What makes a finding fail the suite: these impacts, and a `main` landmark whatever axe rates it. */
const FAILING_IMPACTS = new Set(['serious', 'critical']);
const ALWAYS_FAILING = new Set(['landmark-one-main', 'landmark-no-duplicate-main']);

interface AxeNode {
  target: unknown[];
  failureSummary?: string;
}
interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: AxeNode[];
}

/**
 * Runs axe on the page as it is now and returns the failing findings, one line per element:
 * `rule (impact): selector — what is wrong`. The experimental rule that checks an `aria-label`
 * contains the visible text (WCAG 2.5.3) is switched on: axe leaves it off by default.
 */
export async function axeFindings(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: unknown[] }> } }).axe;
    const res = await axe.run(document, {
      resultTypes: ['violations'],
      rules: { 'label-content-name-mismatch': { enabled: true } },
    });
    return res.violations;
  });
  const out: string[] = [];
  for (const v of violations as AxeViolation[]) {
    if (!FAILING_IMPACTS.has(v.impact ?? '') && !ALWAYS_FAILING.has(v.id)) continue;
    for (const n of v.nodes)
      out.push(`${v.id} (${v.impact ?? '?'}): ${n.target.map(String).join(' ')} — ${(n.failureSummary ?? v.help).replace(/\s+/g, ' ')}`);
  }
  return out;
}

/** axe in the light and the dark theme (the app follows the system's), each finding named by screen and theme. */
export async function axeBothThemes(page: Page, screen: string): Promise<string[]> {
  const out: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const f of await axeFindings(page)) out.push(`${screen} [${scheme}] ${f}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return out;
}
