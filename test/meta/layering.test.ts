import { describe, expect, it } from 'vitest';
import { BACKEND_FILES, KNOWN_VIOLATIONS, LAYER_ORDER, LAYERS, type LayerRule, UNITS } from './layers.js';
import { docLayerTable, srcViolations, upwardArrows, webViolations } from './layering.js';
import { readRepoFile, treeFiles } from './tree-files.js';

/** Generated from the table in test/meta/layers.ts (ARCHITECTURE.md §2). */
describe('layering', () => {
  const srcFiles = treeFiles(['src']).filter((f) => /\.tsx?$/.test(f));

  const violations = srcFiles.flatMap((f) => srcViolations(f.slice('src/'.length), readRepoFile(f)));

  it('every import under src/ follows an allowed arrow of test/meta/layers.ts', () => {
    expect(violations.filter((v) => !(v in KNOWN_VIOLATIONS))).toEqual([]);
  });

  it('the known-violations list holds nothing that has been fixed', () => {
    expect(Object.keys(KNOWN_VIOLATIONS).filter((v) => !violations.includes(v))).toEqual([]);
  });

  it('the web app takes only types from src/', () => {
    const webFiles = treeFiles(['web/src']).filter((f) => /\.tsx?$/.test(f));
    expect(webFiles.flatMap((f) => webViolations(f, readRepoFile(f)))).toEqual([]);
  });

  it('the table names only units and backend files that exist', () => {
    const units = new Set(srcFiles.map((f) => f.slice('src/'.length).split('/')[0]!));
    const stale = Object.keys(UNITS).filter((u) => !units.has(u) && u !== 'daemon-files');
    expect(stale).toEqual([]);
    for (const f of [...BACKEND_FILES.process, ...BACKEND_FILES.protocol]) expect(srcFiles).toContain(`src/backend/${f}`);
  });
});

describe('the layers: test/meta/layers.ts and docs/ARCHITECTURE.md §2 say the same', () => {
  it('no arrow the table allows points up a layer (domain → protocol, transport → domain, never back)', () => {
    expect(upwardArrows()).toEqual([]);
  });

  it('the doc lists the same layers bottom up, each with the same units and package bans', () => {
    const doc = docLayerTable(readRepoFile('docs/ARCHITECTURE.md'));
    const table = LAYER_ORDER.map((layer) => ({
      layer,
      units: Object.keys(UNITS)
        .filter((u) => UNITS[u]!.layer === layer)
        .sort(),
      bans: (LAYERS[layer] as LayerRule).forbiddenPackages?.label ?? '—',
    }));
    expect(doc.map((row) => ({ ...row, units: [...row.units].sort() }))).toEqual(table);
  });

  it('catches an arrow that points up, and a doc row that is off', () => {
    expect(
      upwardArrows({
        acp: { layer: 'protocol', role: '', imports: ['domain'] },
        domain: { layer: 'domain', role: '', imports: ['acp'] },
      }),
    ).toEqual(['acp (protocol) → domain (domain): points up a layer']);
    const doc =
      '<!-- layers -->\n| layer | units | deals in | may not import |\n| --- | --- | --- | --- |\n| `protocol` | `acp`, `app-server` | x | ws |\n<!-- /layers -->';
    expect(docLayerTable(doc)).toEqual([{ layer: 'protocol', units: ['acp', 'app-server'], bans: 'ws' }]);
  });
});

describe('the layering check catches what it must (each line is a forbidden import)', () => {
  it.each([
    ['domain/x.ts', "import { WebSocket } from 'ws';", /ws: the domain knows/],
    ['domain/x.ts', "import { spawn } from 'node:child_process';", /child_process/],
    ['doctor/x.ts', "import { spawn } from 'node:child_process';", /child_process: the domain knows/],
    ['acp/x.ts', "import type { FastifyInstance } from 'fastify';", /fastify: translation/],
    ['fs/x.ts', "import WebSocket from 'ws';", /ws: the foundation/],
    ['gateway/x.ts', "import { spawn } from 'node:child_process';", /transport, not processes/],
    ['acp/x.ts', "import type { Hub } from '../domain/hub.js';", /\(acp\) imports src\/domain\/hub.ts \(domain\)/],
    ['domain/x.ts', "import type { X } from '../backend/backend-link.js';", /\(domain\) imports src\/backend\/backend-link.ts \(backend\)/],
    ['backend/x.ts', "import type { Hub } from '../domain/hub.js';", /not an allowed arrow/],
    ['http/x.ts', "import { gatewayPlugin } from '../gateway/acp-route.js';", /\(http\) imports src\/gateway/],
    ['auth/x.ts', "export { statePaths } from '../daemon/daemon.js';", /\(auth\) imports src\/daemon\/daemon.ts/],
    ['simulator/x.ts', "import { validateProviderDocument } from '../settings/provider-schema.js';", /\(simulator\) imports src\/settings/],
    ['acp/x.ts', "const m = await import('../gateway/dispatch.js');", /\(acp\) imports src\/gateway/],
    ['backend/ndjson.ts', "import fs from 'node:fs';", /protocol file/],
    ['backend/backend-link.ts', "import { spawn } from 'child_process';", /only child-transport.ts/],
    ['newfolder/x.ts', "import { LIMITS } from '../limits.js';", /not in test\/meta\/layers.ts/],
  ])('%s: %s', (file, line, message) => {
    const found = srcViolations(file, `${line}\n`);
    expect(found.length).toBeGreaterThan(0);
    expect(found.join('\n')).toMatch(message);
  });

  it('allows what the table allows', () => {
    expect(
      srcViolations(
        'domain/x.ts',
        "import { translateEvent } from '../acp/translate-event.js';\nimport type { BackendPort } from '../ports/backend-port.js';\n",
      ),
    ).toEqual([]);
    expect(srcViolations('backend/index.ts', "import { simulatorSpawnSpec } from '../simulator/launcher.js';\n")).toEqual([]);
    expect(webViolations('web/src/x.ts', "import type { X } from '../../src/zcode-ext.js';\n")).toEqual([]);
    expect(webViolations('web/src/x.ts', "import { X } from '../../src/zcode-ext.js';\n")).toHaveLength(1);
    expect(webViolations('web/src/net/x.ts', "import { CLOSE } from '../../../src/gateway/close-codes.js';\n")).toEqual([]);
  });
});
