/**
 * Finds log calls that repeat a key pino writes on every line itself. pino does not merge such a
 * key: the line then holds it twice (`"pid":1,…,"pid":2`), and which one a reader gets depends on
 * its JSON parser. Pure over a file's text, so the test can also prove a repeat is caught. The
 * TypeScript on this tree (7) has no parser API in JavaScript, so the scan reads the object
 * literal itself: Biome-formatted source, strings and nesting skipped.
 */

/** The keys pino writes on every line: its base (`pid`, `hostname`) and `level`, `time`, `msg`. */
export const PINO_LINE_KEYS: ReadonlySet<string> = new Set(['pid', 'hostname', 'level', 'time', 'msg']);

/** A logger method whose first argument, an object literal, lands at the top level of a line. */
const LOG_CALL = /\.(?:trace|debug|info|warn|error|fatal|child)\(\s*\{/g;
/** A property at the start of an object entry: `name:`, `'name':`, `"name":` or shorthand `name,` / `name }`. */
const KEY = /^\s*(?:([A-Za-z_$][\w$]*)|'([^']*)'|"([^"]*)")\s*(?=[:,}])/;

/** The top-level keys of the object literal that opens at `text[open]` (a `{`). */
function topLevelKeys(text: string, open: number): Array<{ key: string; at: number }> {
  const keys: Array<{ key: string; at: number }> = [];
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'" || c === '`') {
      // Skips the string (a template's `${…}` is read as part of it: enough for a key scan).
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\') i++;
      continue;
    }
    if (c === '{' || c === '[' || c === '(') depth++;
    else if (c === '}' || c === ']' || c === ')') {
      depth--;
      if (depth === 0) break;
    }
    if (depth === 1 && (c === '{' || c === ',')) {
      const m = KEY.exec(text.slice(i + 1, i + 200));
      const key = m?.[1] ?? m?.[2] ?? m?.[3];
      if (key !== undefined) keys.push({ key, at: i + 1 + (m?.[0].length ?? 0) });
    }
  }
  return keys;
}

/** `file:line key` for each property of a log call's object that repeats a line key of pino. */
export function baseKeyRepeats(file: string, text: string): string[] {
  const found: string[] = [];
  for (const call of text.matchAll(LOG_CALL)) {
    const open = (call.index ?? 0) + call[0].length - 1;
    for (const { key, at } of topLevelKeys(text, open))
      if (PINO_LINE_KEYS.has(key)) found.push(`${file}:${text.slice(0, at).split('\n').length} ${key}`);
  }
  return found;
}
