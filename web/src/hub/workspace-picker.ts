/**
 * What the new-session picker reads from the hub: the workspace roots
 * (`GET /api/workspaces`) and one folder's sub-folders (`GET /api/workspaces/dirs`), both
 * confined by the hub to the roots. Pure parsing beside the two calls.
 */
import type { ApiFn } from '../net/rest.js';
import { arr, rec, str } from '../wire.js';

export interface Roots {
  defaultWorkspace?: string;
  roots: string[];
}

export interface FolderListing {
  path: string;
  root: string;
  parent?: string;
  dirs: Array<{ name: string; path: string }>;
  truncated: boolean;
}

/** The workspace roots of a hub. */
export async function fetchRoots(api: ApiFn): Promise<Roots> {
  const b = rec((await api('/workspaces')).body);
  const defaultWorkspace = str(b?.['defaultWorkspace']);
  return {
    ...(defaultWorkspace ? { defaultWorkspace } : {}),
    roots: arr(b?.['workspaces']).flatMap((w) => (typeof w === 'string' ? [w] : [])),
  };
}

/** One folder's sub-folders; a RestError (400/403 naming the roots) for a path outside them. */
export async function fetchFolder(api: ApiFn, path: string): Promise<FolderListing> {
  const b = rec((await api(`/workspaces/dirs?path=${encodeURIComponent(path)}`)).body);
  const parent = str(b?.['parent']);
  return {
    path: str(b?.['path']) ?? path,
    root: str(b?.['root']) ?? path,
    ...(parent ? { parent } : {}),
    truncated: b?.['truncated'] === true,
    dirs: arr(b?.['dirs']).flatMap((d) => {
      const r = rec(d);
      const name = str(r?.['name']);
      const p = str(r?.['path']);
      return name && p ? [{ name, path: p }] : [];
    }),
  };
}

/** True when `path` is a root or inside one (by text; the hub decides for real). */
export function insideRoots(path: string, roots: readonly string[]): boolean {
  const p = path.replace(/\/+$/, '') || '/';
  return roots.some((r) => {
    const root = r.replace(/\/+$/, '') || '/';
    return p === root || p.startsWith(root === '/' ? '/' : `${root}/`);
  });
}
