/**
 * A small line-by-line syntax highlighter for diffs on a phone: comments, strings, numbers and
 * keywords of the common languages, chosen by file extension. Pure and dependency-free (a full
 * grammar engine would cost more than the rest of the app); a line never spans state, so a
 * block comment or string opened on an earlier line is not carried over.
 */

export type TokenClass = 'kw' | 'str' | 'com' | 'num' | 'plain';
export interface Token {
  cls: TokenClass;
  text: string;
}

interface Lang {
  keywords: ReadonlySet<string>;
  /** Line comment starters. */
  line: readonly string[];
  /** Markdown-ish: headings and code spans instead of code tokens. */
  prose?: boolean;
}

const words = (s: string): ReadonlySet<string> => new Set(s.split(' '));
const JS = words(
  'import export from default function return const let var if else for while do switch case break continue new class extends implements interface type enum async await yield try catch finally throw typeof instanceof in of void null undefined true false this super static public private protected readonly as satisfies keyof declare namespace',
);
const PY = words(
  'def class return if elif else for while in not and or is None True False import from as with try except finally raise lambda yield pass break continue global nonlocal async await',
);
const GO = words(
  'package import func return if else for range switch case default break continue go defer chan map struct interface type var const nil true false select fallthrough goto',
);
const RS = words(
  'fn let mut pub use mod struct enum impl trait for in if else match loop while return self Self crate super const static as ref move async await dyn where true false type unsafe',
);
const SH = words('if then else elif fi for in do done case esac while until function return export local set unset echo exit');
const CSS = words('important media supports import from to');

const LANGS: Record<string, Lang> = {
  js: { keywords: JS, line: ['//'] },
  py: { keywords: PY, line: ['#'] },
  go: { keywords: GO, line: ['//'] },
  rs: { keywords: RS, line: ['//'] },
  sh: { keywords: SH, line: ['#'] },
  css: { keywords: CSS, line: [] },
  json: { keywords: words('true false null'), line: [] },
  yaml: { keywords: words('true false null yes no'), line: ['#'] },
  md: { keywords: new Set(), line: [], prose: true },
};

const EXT: Record<string, keyof typeof LANGS> = {
  ts: 'js',
  tsx: 'js',
  js: 'js',
  jsx: 'js',
  mjs: 'js',
  cjs: 'js',
  mts: 'js',
  cts: 'js',
  java: 'js',
  c: 'js',
  h: 'js',
  cc: 'js',
  cpp: 'js',
  hpp: 'js',
  cs: 'js',
  kt: 'js',
  swift: 'js',
  dart: 'js',
  php: 'js',
  scala: 'js',
  py: 'py',
  rb: 'py',
  go: 'go',
  rs: 'rs',
  sh: 'sh',
  bash: 'sh',
  zsh: 'sh',
  css: 'css',
  scss: 'css',
  less: 'css',
  json: 'json',
  jsonc: 'js',
  yml: 'yaml',
  yaml: 'yaml',
  toml: 'yaml',
  md: 'md',
  markdown: 'md',
  mdx: 'md',
};

/** The language of a path by its extension; undefined = plain text. */
export function languageOf(path: string): string | undefined {
  const base = path.split('/').pop() ?? '';
  if (base === 'Dockerfile' || base === 'Makefile') return 'sh';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? EXT[base.slice(dot + 1).toLowerCase()] : undefined;
}

function push(out: Token[], cls: TokenClass, text: string): void {
  if (!text) return;
  const last = out[out.length - 1];
  if (last && last.cls === cls) last.text += text;
  else out.push({ cls, text });
}

const WORD = /[A-Za-z_$][\w$]*/y;
const NUMBER = /(?:0[xX][\da-fA-F_]+|\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?)/y;

/** Tokens of one line of `lang` (from languageOf); concatenated texts equal the line. */
export function highlightLine(line: string, lang: string | undefined): Token[] {
  const spec = lang ? LANGS[lang] : undefined;
  if (!spec) return line ? [{ cls: 'plain', text: line }] : [];
  const out: Token[] = [];
  if (spec.prose) {
    if (/^\s{0,3}#{1,6}\s/.test(line)) return [{ cls: 'kw', text: line }];
    const parts = line.split(/(`[^`]*`)/);
    for (const p of parts) push(out, p.startsWith('`') && p.endsWith('`') && p.length > 1 ? 'str' : 'plain', p);
    return out;
  }
  let i = 0;
  while (i < line.length) {
    const rest = line.slice(i);
    const com = spec.line.find((c) => rest.startsWith(c)) ?? (rest.startsWith('/*') ? '/*' : undefined);
    if (com !== undefined) {
      const end = com === '/*' ? line.indexOf('*/', i + 2) : -1;
      const stop = end < 0 ? line.length : end + 2;
      push(out, 'com', line.slice(i, stop));
      i = stop;
      continue;
    }
    const ch = line[i] ?? '';
    if (ch === '"' || ch === "'" || ch === '`') {
      let j = i + 1;
      while (j < line.length && line[j] !== ch) j += line[j] === '\\' ? 2 : 1;
      const stop = Math.min(line.length, j + 1);
      push(out, 'str', line.slice(i, stop));
      i = stop;
      continue;
    }
    WORD.lastIndex = i;
    const w = WORD.exec(line);
    if (w) {
      push(out, spec.keywords.has(w[0]) ? 'kw' : 'plain', w[0]);
      i += w[0].length;
      continue;
    }
    NUMBER.lastIndex = i;
    const n = NUMBER.exec(line);
    if (n?.[0]) {
      push(out, 'num', n[0]);
      i += n[0].length;
      continue;
    }
    push(out, 'plain', ch);
    i++;
  }
  return out;
}
