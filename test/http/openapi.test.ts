import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startProductionDaemon, type ProductionDaemon } from '../security/helpers/production-daemon.js';

/**
 * `/docs` documents the REST API from the same zod schemas that validate it; every route the
 * production daemon registers appears in the OpenAPI document (issue: REST settings API).
 */

let prod: ProductionDaemon;
beforeAll(async () => {
  prod = await startProductionDaemon();
});
afterAll(async () => {
  await prod?.close();
});

/** Routes that are not REST: the WebSocket, the docs UI itself and the web app's shell. */
function isRest(url: string): boolean {
  return (url.startsWith('/api/') || url === '/metrics') && !url.startsWith('/docs');
}

const openApiSchema = z.object({
  openapi: z.string(),
  paths: z.record(z.string(), z.record(z.string(), z.looseObject({ responses: z.record(z.string(), z.unknown()).optional() }))),
});

describe('OpenAPI document at /docs/json', () => {
  it('lists every registered REST route with its method, and schemas for bodies and responses', async () => {
    const res = await prod.daemon.app.inject({
      method: 'GET',
      url: '/docs/json',
      headers: { authorization: `Bearer ${prod.daemon.adminToken}` },
    });
    expect(res.statusCode).toBe(200);
    const doc = openApiSchema.parse(res.json());
    const missing: string[] = [];
    let checked = 0;
    for (const route of prod.routes) {
      if (route.websocket || !isRest(route.url)) continue;
      const openApiPath = route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      for (const method of route.methods) {
        if (method === 'HEAD' || method === 'OPTIONS') continue;
        checked += 1;
        if (!doc.paths[openApiPath]?.[method.toLowerCase()]) missing.push(`${method} ${route.url}`);
      }
    }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(30);
    // Bodies are described by their zod schemas (spot check: creating a provider).
    const create = doc.paths['/api/settings/providers']?.post as
      | { requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } }
      | undefined;
    expect(Object.keys(create?.requestBody?.content?.['application/json']?.schema?.properties ?? {})).toEqual(
      expect.arrayContaining(['providerId', 'apiType', 'baseUrl', 'apiKey']),
    );
    expect(Object.keys(doc.paths).length).toBeGreaterThan(30);
  });

  it('serves the interactive docs at /docs to authenticated callers only', async () => {
    expect((await prod.daemon.app.inject({ method: 'GET', url: '/docs/json' })).statusCode).toBe(401);
    const ui = await prod.daemon.app.inject({
      method: 'GET',
      url: '/docs/',
      headers: { authorization: `Bearer ${prod.daemon.adminToken}` },
    });
    expect(ui.statusCode).toBe(200);
  });
});
