import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../fs/secure-file.js';
import type { Sent } from '../../wire/message.js';
import { type WorkflowEntry, type WorkflowMeta, type WorkflowScope, type workflowGetResult, workflowMeta } from '../../wire/workflows.js';

/**
 * Saved workflow files (§8), rescanned on every call. Simulator file format, one workflow per
 * `<name>.js` in `<workspace>/.zcode/workflows/` (project) or `<home>/.zcode/workflows/` (global):
 *
 *   /* @zcode-workflow
 *   {"description":"…","whenToUse":"…","args":{"target":{"type":"string","required":true}}}
 *   *\/
 *   <script body>
 *
 * The header is the strict `Meta` JSON (`*\/` inside it is written as `*\\/`, a valid JSON escape).
 */
export const HEADER_OPEN = '/* @zcode-workflow\n';
export const HEADER_CLOSE = '\n*/\n';
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export interface WorkflowFile {
  name: string;
  scope: WorkflowScope;
  path: string;
  meta: WorkflowMeta;
  script: string;
}

/** A read that failed, exactly as `workflows/get` answers it (§8). */
export type ReadFailure = Extract<Sent<typeof workflowGetResult>, { ok: false }>;

/** The directory of a scope; `home` is the simulator's (SimOptions.home). */
export function workflowDir(workspacePath: string, scope: WorkflowScope, home: string): string {
  return scope === 'project' ? path.join(workspacePath, '.zcode', 'workflows') : path.join(home, '.zcode', 'workflows');
}

/** Encodes a workflow file. */
export function encodeWorkflow(meta: WorkflowMeta, script: string): string {
  return `${HEADER_OPEN}${JSON.stringify(meta, null, 2).replace(/\*\//g, '*\\/')}${HEADER_CLOSE}${script}`;
}

/** Parses a workflow file; a bad header is a `parse_error` with a reason. */
export function decodeWorkflow(content: string): { ok: true; meta: WorkflowMeta; script: string } | { ok: false; detail: string } {
  if (!content.startsWith(HEADER_OPEN)) return { ok: false, detail: 'missing /* @zcode-workflow header' };
  const end = content.indexOf(HEADER_CLOSE, HEADER_OPEN.length - 1);
  if (end === -1) return { ok: false, detail: 'unterminated header' };
  let json: unknown;
  try {
    json = JSON.parse(content.slice(HEADER_OPEN.length, end));
  } catch (err) {
    return { ok: false, detail: `header is not JSON: ${String(err)}` };
  }
  const meta = workflowMeta.strict.safeParse(json);
  if (!meta.success) return { ok: false, detail: meta.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ') };
  return { ok: true, meta: meta.data, script: content.slice(end + HEADER_CLOSE.length) };
}

/** Reads one workflow by name; `scope` undefined → project first, then global. */
export function readWorkflow(workspacePath: string, home: string, name: string, scope?: WorkflowScope): WorkflowFile | ReadFailure {
  if (!NAME_PATTERN.test(name)) return { ok: false, reason: 'invalid_name' };
  for (const s of scope ? [scope] : (['project', 'global'] as const)) {
    const file = path.join(workflowDir(workspacePath, s, home), `${name}.js`);
    if (!fs.existsSync(file)) continue;
    let content: string;
    try {
      content = fs.readFileSync(file, 'utf8');
    } catch (err) {
      return { ok: false, reason: 'read_error', detail: String(err) };
    }
    const d = decodeWorkflow(content);
    if (!d.ok) return { ok: false, reason: 'parse_error', detail: d.detail };
    return { name, scope: s, path: file, meta: d.meta, script: d.script };
  }
  return { ok: false, reason: 'not_found' };
}

/** Lists one scope's directory: valid entries and `invalid: [{path, reason}]`. */
export function scanDir(
  workspacePath: string,
  home: string,
  scope: WorkflowScope,
): { entries: WorkflowFile[]; invalid: { path: string; reason: string }[]; dir: string } {
  const dir = workflowDir(workspacePath, scope, home);
  const entries: WorkflowFile[] = [];
  const invalid: { path: string; reason: string }[] = [];
  let names: string[] = [];
  try {
    names = fs
      .readdirSync(dir)
      .filter((n) => n.endsWith('.js'))
      .sort();
  } catch {
    return { entries, invalid, dir };
  }
  for (const file of names) {
    const name = file.slice(0, -3);
    const full = path.join(dir, file);
    if (!NAME_PATTERN.test(name)) {
      invalid.push({ path: full, reason: 'invalid_name' });
      continue;
    }
    const r = readWorkflow(workspacePath, home, name, scope);
    if ('ok' in r) invalid.push({ path: full, reason: r.detail ? `${r.reason}: ${r.detail}` : r.reason });
    else entries.push(r);
  }
  return { entries, invalid, dir };
}

/** Writes a workflow file atomically. */
export function writeWorkflow(file: string, meta: WorkflowMeta, script: string): void {
  writeFileAtomic(file, encodeWorkflow(meta, script));
}

/** The `Entry` of §8. */
export function toEntry(w: WorkflowFile): WorkflowEntry {
  return {
    name: w.name,
    description: w.meta.description,
    ...(w.meta.whenToUse ? { whenToUse: w.meta.whenToUse } : {}),
    ...(w.meta.args ? { args: w.meta.args } : {}),
    scope: w.scope,
    path: w.path,
  };
}
