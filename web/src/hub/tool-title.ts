/**
 * A tool call's title as the hub writes it (`Read /abs/ws/src/a.ts`, `` `npm test` `` —
 * src/acp/tool-info.ts), made readable on a phone: the session's workspace is dropped from the
 * paths in it, and Markdown inline code (`…`) is split out to be shown as code, not as backticks.
 * A session's title and a user's message are written the same way by people, so they are split
 * the same way (without a workspace).
 */
export interface TitlePart {
  text: string;
  code: boolean;
}

/** `title` with every path inside the workspace `cwd` made relative to it (the workspace itself reads `.`). */
export function relativeTitle(title: string, cwd: string | undefined): string {
  const root = cwd?.replace(/\/+$/, '');
  if (!root) return title;
  const inside = title.split(`${root}/`).join('');
  // The workspace itself, as a whole word (not a longer path that starts with the same letters).
  return inside.replace(new RegExp(`${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=$|[\\s\`'",:;)])`, 'g'), '.');
}

/** The title in text and code parts; an unpaired backtick stays as it is, and code never spans a line break. */
export function titleParts(title: string, cwd: string | undefined): TitlePart[] {
  const text = relativeTitle(title, cwd);
  const parts: TitlePart[] = [];
  const re = /`([^`\n]+)`/g;
  let at = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > at) parts.push({ text: text.slice(at, m.index), code: false });
    parts.push({ text: m[1] ?? '', code: true });
    at = m.index + m[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at), code: false });
  return parts;
}

/** The title as plain words (its code without backticks): the accessible name of a title shown with CodeText. */
export function plainTitle(title: string): string {
  return titleParts(title, undefined)
    .map((p) => p.text)
    .join('');
}
