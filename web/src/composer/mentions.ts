/**
 * `@` mentions of workspace files in the composer. Pure (unit-tested): `mentionAt` finds the
 * `@partial` being typed before the caret, `insertMention` puts the chosen path in its place, and
 * `mentionLinks` turns the mentions still in the sent text into ACP `resource_link` blocks.
 */

export interface MentionQuery {
  /** Where the `@` is in the text. */
  start: number;
  /** The folder typed so far, relative to the workspace root ('' = the root), without a trailing slash. */
  dir: string;
  /** The start of the name being typed in that folder. */
  partial: string;
}

/** The mention being typed just before `caret`, if any (an `@` at the start or after white space). */
export function mentionAt(text: string, caret: number): MentionQuery | undefined {
  const before = text.slice(0, caret);
  const m = /(^|\s)@([^\s@]*)$/.exec(before);
  if (!m) return undefined;
  const typed = m[2] ?? '';
  if (typed.startsWith('/') || typed.split('/').includes('..')) return undefined;
  const slash = typed.lastIndexOf('/');
  return {
    start: before.length - typed.length - 1,
    dir: slash < 0 ? '' : typed.slice(0, slash),
    partial: slash < 0 ? typed : typed.slice(slash + 1),
  };
}

/** Entries of a folder listing that fit what is typed: folders first, then by name. */
export function mentionChoices<E extends { name: string; kind: string }>(entries: readonly E[], partial: string, max: number): E[] {
  const p = partial.toLowerCase();
  return entries
    .filter((e) => e.name.toLowerCase().startsWith(p) && (p.startsWith('.') || !e.name.startsWith('.')))
    .sort((a, b) => Number(b.kind === 'dir') - Number(a.kind === 'dir') || a.name.localeCompare(b.name))
    .slice(0, max);
}

/**
 * Replaces the typed mention with `@<path>`: a folder keeps the mention open (`@src/`), a file
 * closes it with a space. Returns the new text and where the caret goes.
 */
export function insertMention(text: string, caret: number, q: MentionQuery, name: string, isDir: boolean): { text: string; caret: number } {
  const path = q.dir ? `${q.dir}/${name}` : name;
  const inserted = isDir ? `@${path}/` : `@${path} `;
  const after = text.slice(caret).replace(/^[^\s]*/, '');
  const next = text.slice(0, q.start) + inserted + (isDir ? after : after.replace(/^ /, ''));
  return { text: next, caret: q.start + inserted.length };
}

/** A `file://` URL of a path under an absolute root (each segment percent-encoded). */
export function fileUrl(root: string, rel: string): string {
  const u = new URL('file:///');
  u.pathname = `${root.replace(/\/+$/, '')}/${rel}`;
  return u.href;
}

export interface ResourceLink {
  type: 'resource_link';
  uri: string;
  name: string;
}

/** One link per chosen file that is still mentioned in the text, in the order they appear. */
export function mentionLinks(text: string, chosen: ReadonlyMap<string, string>): ResourceLink[] {
  const seen = new Set<string>();
  const links: ResourceLink[] = [];
  for (const m of text.matchAll(/(^|\s)@([^\s@]+)/g)) {
    const rel = m[2] ?? '';
    const root = chosen.get(rel);
    if (root === undefined || seen.has(rel)) continue;
    seen.add(rel);
    links.push({ type: 'resource_link', uri: fileUrl(root, rel), name: rel.split('/').pop() ?? rel });
  }
  return links;
}
