/**
 * The composition root builds the stateful parts (docs/ARCHITECTURE.md §2, docs/STYLE.md habit 1):
 * `buildApp` and the route plugins construct none of the project's classes, so a second
 * `WorkspaceRoots` or a route's own catalog cannot come back unnoticed. Errors are values, not
 * parts; `ApprovalState` is made per request by the policy dry run and dropped with its answer.
 */
import { describe, expect, it } from 'vitest';
import { readRepoFile, treeFiles } from './tree-files.js';

/** What may be constructed there: errors and per-request values. */
const ALLOWED = new Set(['HubError', 'ApprovalState']);

/** The names `source` imports as values (not `import type`, not `type X`) from the project's own modules. */
function valueImports(source: string): Set<string> {
  const names = new Set<string>();
  for (const m of source.matchAll(/^import\s+(?!type\b)([^;]*?)\s+from\s+'([^']*)'/gm)) {
    if (!m[2]?.startsWith('.')) continue;
    const spec = m[1] ?? '';
    const named = spec.match(/\{([\s\S]*)\}/)?.[1] ?? '';
    for (const part of named.split(',')) {
      const p = part.trim();
      if (p !== '' && !p.startsWith('type ')) names.add(p.split(/\s+as\s+/).pop() as string);
    }
    const bare = spec
      .replace(/\{[\s\S]*\}/, '')
      .replace(/,/g, '')
      .trim();
    if (bare !== '' && !bare.startsWith('*')) names.add(bare);
  }
  return names;
}

/** `file: Class` for every project class `source` constructs outside `ALLOWED`. */
function constructed(file: string, source: string): string[] {
  const values = valueImports(source);
  return [...source.matchAll(/\bnew ([A-Z]\w*)\s*\(/g)]
    .map((m) => m[1] as string)
    .filter((name) => values.has(name) && !ALLOWED.has(name))
    .map((name) => `${file}: ${name}`);
}

describe('the HTTP side builds no stateful part', () => {
  const files = [
    'src/http/app.ts',
    'src/http/fastify-server.ts',
    'src/http/web.ts',
    'src/http/auth-hook.ts',
    'src/gateway/acp-route.ts',
    ...treeFiles(['src/http/routes']).filter((f) => f.endsWith('.ts')),
  ];

  it('buildApp, the hooks and every route plugin construct none of the project’s classes', () => {
    expect(files.length).toBeGreaterThan(20);
    expect(files.flatMap((f) => constructed(f, readRepoFile(f)))).toEqual([]);
  });
});

describe('the hub’s core builds none of the parts that keep state on disk', () => {
  it('constructs only its in-memory parts; the session marks (a file in the state dir) come from the root', () => {
    const built = new Set(constructed('src/domain/hub-core.ts', readRepoFile('src/domain/hub-core.ts')).map((c) => c.split(': ')[1]));
    // AuthorBook is built here only as the in-memory fallback when the root hands none in.
    expect([...built].sort()).toEqual(['AuthorBook', 'Broadcaster', 'InteractionRegistry', 'SessionState', 'SessionStatePublisher']);
  });
});

describe('the check itself', () => {
  it('catches a value import that is constructed, and leaves type imports, errors and libraries alone', () => {
    const source = [
      "import { WorkspaceRoots } from '../fs/workspace-roots.js';",
      "import type { Peers } from './security/peers.js';",
      "import { HubError } from '../errors.js';",
      "import Fastify from 'fastify';",
      "import { z } from 'zod';",
      "import { WorkflowService } from '../settings/workflow-service.js';",
      "import { ModelCatalog as Catalog, type QuotaService } from '../settings/x.js';",
      'const a = new WorkspaceRoots([], s); const b = new Catalog({}); new HubError("x"); new Map(); new WorkflowService(o); Fastify();',
    ].join('\n');
    expect(constructed('x.ts', source)).toEqual(['x.ts: WorkspaceRoots', 'x.ts: Catalog', 'x.ts: WorkflowService']);
  });
});
