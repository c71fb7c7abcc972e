/**
 * The session's workspace over the hub's read-only file routes (`/api/instances/zcode-hub/fs/…`,
 * confined to the session root on the server). Paths are relative to that root.
 */
import { rec, str } from '../wire.js';
import { api, RestError, type ApiFn } from './rest.js';

/** The hub is its own (only) instance on the zcode-acp-remote routes. */
const INSTANCE = 'zcode-hub';

/** A GET of `/api<path>` on the hub that runs a session (the home hub's cookie, or another machine's DPoP). */
export type ApiGet = (path: string) => Promise<Response>;
const homeGet: ApiGet = (path) => fetch(`/api${path}`, { credentials: 'same-origin' });
let getFor: (sessionId: string) => ApiGet = () => homeGet;
let apiFor: (sessionId: string) => ApiFn = () => api;

/** Tells these routes which hub runs a session (machines/registry.ts). */
export function setWorkspaceHubs(get: (sessionId: string) => ApiGet | undefined, rest: (sessionId: string) => ApiFn | undefined): void {
  getFor = (sid) => get(sid) ?? homeGet;
  apiFor = (sid) => rest(sid) ?? api;
}

export interface DirEntry {
  name: string;
  kind: 'file' | 'dir' | 'symlink';
  size: number;
  mtime: number;
}
export interface Listing {
  root: string;
  entries: DirEntry[];
  truncated: boolean;
}
export type FileBody =
  | { kind: 'text'; text: string; bytes: number }
  | { kind: 'image'; url: string; bytes: number; mime: string }
  | { kind: 'binary'; bytes: number; mime: string };

function query(sessionId: string, path: string | undefined): string {
  const q = new URLSearchParams({ sessionId });
  if (path) q.set('path', path);
  return q.toString();
}

/** One directory level (directories first). */
export async function listDir(sessionId: string, path: string | undefined): Promise<Listing> {
  const { body } = await apiFor(sessionId)(`/instances/${INSTANCE}/fs/list?${query(sessionId, path)}`);
  const b = rec(body);
  const entries = Array.isArray(b?.['entries']) ? b['entries'] : [];
  return {
    root: str(b?.['root']) ?? '',
    truncated: b?.['truncated'] === true,
    entries: entries.flatMap((e): DirEntry[] => {
      const r = rec(e);
      const name = str(r?.['name']);
      const kind = r?.['kind'];
      if (!name || (kind !== 'file' && kind !== 'dir' && kind !== 'symlink')) return [];
      return [{ name, kind, size: Number(r?.['size']) || 0, mtime: Number(r?.['mtime']) || 0 }];
    }),
  };
}

/** True when the bytes look like text (valid UTF-8, no NUL in the first 8 KiB). */
export function looksLikeText(bytes: Uint8Array): boolean {
  if (bytes.subarray(0, 8192).includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** A file's content: text, an image (object URL; revoke it when done) or "binary". */
export async function readFile(sessionId: string, path: string): Promise<FileBody> {
  const res = await getFor(sessionId)(`/instances/${INSTANCE}/fs/file?${query(sessionId, path)}`);
  if (!res.ok) {
    let code = `HTTP_${res.status}`;
    let message = res.statusText;
    try {
      const err = rec(rec((await res.json()) as unknown)?.['error']);
      code = str(err?.['code']) ?? code;
      message = str(err?.['message']) ?? message;
    } catch {
      // Not JSON: keep the status.
    }
    throw new RestError(res.status, code, message, undefined);
  }
  const mime = (res.headers.get('content-type') ?? 'application/octet-stream').split(';')[0]!.trim();
  const buf = new Uint8Array(await res.arrayBuffer());
  if (mime.startsWith('image/'))
    return { kind: 'image', url: URL.createObjectURL(new Blob([buf], { type: mime })), bytes: buf.length, mime };
  if (looksLikeText(buf)) return { kind: 'text', text: new TextDecoder().decode(buf), bytes: buf.length };
  return { kind: 'binary', bytes: buf.length, mime };
}

/** One window of a text file too big to fetch whole: lines from `firstLine` (1-based) on. */
export interface LineWindow {
  firstLine: number;
  lines: string[];
}

/** Lines `line`…`line+limit-1` of a file (`fs/file?line=&limit=`; the hub caps `limit`). */
export async function readLines(sessionId: string, path: string, line: number, limit: number): Promise<LineWindow> {
  const q = `${query(sessionId, path)}&line=${line}&limit=${limit}`;
  const res = await getFor(sessionId)(`/instances/${INSTANCE}/fs/file?${q}`);
  if (!res.ok) throw new RestError(res.status, `HTTP_${res.status}`, res.statusText, undefined);
  const text = await res.text();
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return { firstLine: Number(res.headers.get('x-zcode-first-line')) || line, lines };
}

/** One changed file of the session's git state (`GET /api/sessions/:id/git`). */
export interface GitFile {
  path: string;
  status: string;
  staged: boolean;
  from?: string;
}
export interface GitState {
  isRepo: boolean;
  branch?: string;
  detached?: boolean;
  upstream?: string;
  ahead?: number;
  behind?: number;
  files: GitFile[];
  truncated: boolean;
}

/** The session workspace's branch and changed files (read-only; `operate` on the hub). */
export async function gitState(sessionId: string): Promise<GitState> {
  const { body } = await apiFor(sessionId)(`/sessions/${encodeURIComponent(sessionId)}/git`);
  const b = rec(body);
  const files = Array.isArray(b?.['files']) ? b['files'] : [];
  const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
  const branch = str(b?.['branch']);
  const upstream = str(b?.['upstream']);
  const ahead = num(b?.['ahead']);
  const behind = num(b?.['behind']);
  return {
    isRepo: b?.['isRepo'] === true,
    ...(branch ? { branch } : {}),
    ...(b?.['detached'] === true ? { detached: true } : {}),
    ...(upstream ? { upstream } : {}),
    ...(ahead === undefined ? {} : { ahead }),
    ...(behind === undefined ? {} : { behind }),
    truncated: b?.['truncated'] === true,
    files: files.flatMap((f): GitFile[] => {
      const r = rec(f);
      const path = str(r?.['path']);
      const status = str(r?.['status']);
      if (!path || !status) return [];
      const from = str(r?.['from']);
      return [{ path, status, staged: r?.['staged'] === true, ...(from ? { from } : {}) }];
    }),
  };
}

/** One file's unified diff against HEAD, as git writes it. */
export async function gitDiff(sessionId: string, path: string): Promise<{ diff: string; truncated: boolean }> {
  const { body } = await apiFor(sessionId)(`/sessions/${encodeURIComponent(sessionId)}/git/diff?path=${encodeURIComponent(path)}`);
  const b = rec(body);
  return { diff: str(b?.['diff']) ?? '', truncated: b?.['truncated'] === true };
}

/** The REST calls of the hub that runs a session (the home hub, or another machine's). */
export function sessionRest(sessionId: string): ApiFn {
  return apiFor(sessionId);
}
