import fs from 'node:fs';
import path from 'node:path';
import { parseParams } from '../protocol-error.js';
import { ForRunParams, ListParams, MoveParams, NameParams, RunsParams, SaveParams, UpdateMetaParams } from '../../wire/workflow-params.js';
import type { SimulatorCore } from '../simulator-core.js';
import type { Sent } from '../../wire/message.js';
import type { workflowRunsResult } from '../../wire/workflow-runs.js';
import { workflowMeta } from '../../wire/workflows.js';
import type * as wire from '../../wire/workflows.js';
import { WorkflowRunRegistry } from '../workflows/run-registry.js';
import { NAME_PATTERN, readWorkflow, scanDir, toEntry, workflowDir, writeWorkflow } from '../workflows/store.js';

type Handler = (sim: SimulatorCore, params: unknown) => unknown;

/** `workflows/*` (§8): session-less, rescanning the directories on every call; failures are results. */
export const workflowMethods: Record<string, Handler> = {
  'workflows/list': (sim, params): Sent<typeof wire.workflowsListResult> => {
    const p = parseParams(ListParams, params);
    const ws = p.workspace.workspacePath;
    if (p.scope) {
      const s = scanDir(ws, sim.options.home, p.scope);
      return { workflows: s.entries.map(toEntry), invalid: s.invalid, dir: s.dir };
    }
    const project = scanDir(ws, sim.options.home, 'project');
    const global = scanDir(ws, sim.options.home, 'global');
    const names = new Set(project.entries.map((e) => e.name));
    return {
      workflows: [...project.entries, ...global.entries.filter((e) => !names.has(e.name))].map(toEntry),
      invalid: [...project.invalid, ...global.invalid],
      dir: project.dir,
    };
  },

  'workflows/get': (sim, params): Sent<typeof wire.workflowGetResult> => {
    const p = parseParams(NameParams, params);
    const r = readWorkflow(p.workspace.workspacePath, sim.options.home, p.name, p.scope);
    if ('ok' in r) return r;
    return { ok: true, name: r.name, path: r.path, scope: r.scope, meta: r.meta, script: r.script };
  },

  'workflows/updateMeta': (sim, params): Sent<typeof wire.workflowUpdateMetaResult> => {
    const p = parseParams(UpdateMetaParams, params);
    // §1.5: the meta is re-validated outside parseParams, so a bad meta is -32603, not -32602.
    const meta = workflowMeta.strict.parse(p.meta);
    const r = readWorkflow(p.workspace.workspacePath, sim.options.home, p.name, p.scope);
    if ('ok' in r) return r;
    try {
      writeWorkflow(r.path, meta, r.script);
    } catch (err) {
      return { ok: false, reason: 'write_error', detail: String(err) };
    }
    return { ok: true, path: r.path };
  },

  'workflows/delete': (sim, params): Sent<typeof wire.workflowDeleteResult> => {
    const p = parseParams(NameParams, params);
    const r = readWorkflow(p.workspace.workspacePath, sim.options.home, p.name, p.scope);
    if ('ok' in r) {
      // A file whose header does not parse can still be deleted.
      if (r.reason === 'parse_error') return deleteBroken(p.workspace.workspacePath, sim.options.home, p.name, p.scope);
      return { ...r, reason: r.reason };
    }
    fs.rmSync(r.path, { force: true });
    return { ok: true, path: r.path };
  },

  'workflows/runs': (sim, params): Sent<typeof workflowRunsResult> => {
    const p = parseParams(RunsParams, params);
    const ws = p.workspace.workspacePath;
    const all = sim.runs.list((r) => (p.scope === 'global' ? true : r.cwd === ws) && (p.name === undefined || r.name === p.name));
    return { runs: all.slice(0, p.limit).map(WorkflowRunRegistry.toRun), ...(all.length > p.limit ? { truncated: true } : {}) };
  },

  'workflows/move': (sim, params): Sent<typeof wire.workflowMoveResult> => {
    const p = parseParams(MoveParams, params);
    if (!NAME_PATTERN.test(p.name)) return { ok: false, reason: 'invalid_name' };
    const ws = p.workspace.workspacePath;
    const from = readWorkflow(ws, sim.options.home, p.name, 'global');
    if ('ok' in from) return { ...from, reason: from.reason === 'parse_error' ? 'read_error' : from.reason };
    const to = path.join(workflowDir(ws, 'project', sim.options.home), `${p.name}.js`);
    if (fs.existsSync(to)) return { ok: false, reason: 'target_exists', path: to };
    try {
      writeWorkflow(to, from.meta, from.script);
      fs.rmSync(from.path, { force: true });
    } catch (err) {
      return { ok: false, reason: 'write_error', detail: String(err) };
    }
    return { ok: true, from: from.path, to };
  },

  'workflows/save': (sim, params): Sent<typeof wire.workflowSaveResult> => {
    const p = parseParams(SaveParams, params);
    if (!NAME_PATTERN.test(p.name)) return { ok: false, reason: 'invalid_name' };
    const run = sim.runs.get(p.runId);
    if (!run) return { ok: false, reason: 'run_not_found' };
    if (run.script.trim() === '') return { ok: false, reason: 'script_missing' };
    const scope = p.scope ?? 'project';
    const ws = p.workspace.workspacePath;
    const file = path.join(workflowDir(ws, scope, sim.options.home), `${p.name}.js`);
    const existed = fs.existsSync(file);
    if (existed && !p.overwrite) return { ok: false, reason: 'target_exists', path: file };
    try {
      writeWorkflow(file, p.meta, run.script);
    } catch (err) {
      return { ok: false, reason: 'write_error', path: file, detail: String(err) };
    }
    const other = fs.existsSync(path.join(workflowDir(ws, scope === 'project' ? 'global' : 'project', sim.options.home), `${p.name}.js`));
    return {
      ok: true,
      name: p.name,
      scope,
      path: file,
      overwritten: existed,
      ...(other ? { shadowing: scope === 'project' ? 'hides_global' : 'hidden_by_project' } : {}),
    };
  },

  'workflows/forRun': (sim, params): Sent<typeof wire.workflowForRunResult> => {
    const p = parseParams(ForRunParams, params);
    const run = sim.runs.get(p.runId);
    if (!run) return {};
    const ws = p.workspace.workspacePath;
    for (const c of p.candidates ?? []) {
      const w = readWorkflow(ws, sim.options.home, c.name, c.scope);
      if (!('ok' in w) && w.script === run.script) return { entry: toEntry(w), match: 'candidate', runArgs: run.args };
    }
    const byName = readWorkflow(ws, sim.options.home, run.name, run.scope);
    if (!('ok' in byName)) return { entry: toEntry(byName), match: byName.script === run.script ? 'script' : 'name', runArgs: run.args };
    return {};
  },
};

function deleteBroken(
  workspacePath: string,
  home: string,
  name: string,
  scope?: wire.WorkflowScope,
): Sent<typeof wire.workflowDeleteResult> {
  for (const s of scope ? [scope] : (['project', 'global'] as const)) {
    const file = path.join(workflowDir(workspacePath, s, home), `${name}.js`);
    if (fs.existsSync(file)) {
      fs.rmSync(file, { force: true });
      return { ok: true, path: file };
    }
  }
  return { ok: false, reason: 'not_found' };
}
