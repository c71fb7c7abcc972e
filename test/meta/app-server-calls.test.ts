import { describe, expect, it } from 'vitest';
import { appServerCallViolations } from './app-server-calls.js';
import { readRepoFile, treeFiles } from './tree-files.js';

describe('only the typed client names app-server methods', () => {
  const files = treeFiles(['src']).filter((f) => /\.tsx?$/.test(f));

  it('no file outside src/app-server, src/backend and the simulator names a ZCode method, builds a v4 envelope or calls the link', () => {
    expect(files.flatMap((f) => appServerCallViolations(f.slice('src/'.length), readRepoFile(f)))).toEqual([]);
  });

  it('the check sees each of the three', () => {
    expect(appServerCallViolations('domain/x.ts', "await core.backend.request('session/send', p);")).toHaveLength(2);
    expect(appServerCallViolations('settings/x.ts', "const e = { commandId: randomUUID(), type: 'stop' };")).toHaveLength(1);
    expect(appServerCallViolations('http/x.ts', "link.request('workflows/list', {})")).toHaveLength(1);
    expect(appServerCallViolations('http/x.ts', "// a comment may cite link.request('workflows/list')")).toEqual([]);
    // ACP's own session methods are not the app-server's.
    expect(
      appServerCallViolations('gateway/x.ts', "client.request('session/request_permission', p); conn.request('elicitation/create', q)"),
    ).toEqual([]);
    expect(appServerCallViolations('app-server/client.ts', "this.call('session/send', p)")).toEqual([]);
  });
});
