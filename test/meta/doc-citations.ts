/**
 * Section citations in the tree (`ARCHITECTURE.md §4.5`, `APP-SERVER.md §11.6`, a bare `§5.2`)
 * and the docs/ files that must carry those sections (docs/README.md).
 */
import { readRepoFile } from './tree-files.js';

/** Cited name → the docs/ file whose numbered headings it refers to. */
export const CITED_DOCS = {
  ARCHITECTURE: 'docs/ARCHITECTURE.md',
  'APP-SERVER': 'docs/APP-SERVER.md',
} as const;
export type CitedName = keyof typeof CITED_DOCS;

/** Lines above a bare `§n` searched for the document it belongs to. */
export const BARE_CITATION_LOOKBACK_LINES = 12;

export interface Citation {
  file: string;
  line: number;
  section: string;
  /** Documents the section may belong to: the one named, or those named nearby. */
  candidates: CitedName[];
  text: string;
}

const NAME = '(ARCHITECTURE|APP-SERVER)(?:\\.md)?';
const NAMED = new RegExp(`${NAME}[ ,]*§ ?(\\d+(?:\\.\\d+)*)`, 'g');
const ANY_NAME = new RegExp(NAME, 'g');
// A § that belongs to something else: an RFC, a seed document.
const FOREIGN = /(?:RFC ?\d+|seeds? ?\d*)[ ,]*$/i;
const SECTION = /§ ?(\d+(?:\.\d+)*)/g;

/** The document a file's bare `§n` refers to when no document is named near it. */
function defaultDoc(file: string): CitedName {
  return file === 'docs/ARCHITECTURE.md' ? 'ARCHITECTURE' : 'APP-SERVER';
}

/** Every `§` citation in `text` (the content of repo file `file`). */
export function extractCitations(file: string, text: string): Citation[] {
  const lines = text.split('\n');
  const out: Citation[] = [];
  lines.forEach((line, i) => {
    const named = new Map<number, string>();
    for (const m of line.matchAll(NAMED)) named.set(m.index + m[0].lastIndexOf('§'), m[1]!);
    for (const m of line.matchAll(SECTION)) {
      const name = named.get(m.index);
      if (name) {
        out.push({ file, line: i + 1, section: m[1]!, candidates: [name as CitedName], text: line.trim() });
        continue;
      }
      if (FOREIGN.test(line.slice(0, m.index))) continue;
      const window = `${lines.slice(Math.max(0, i - BARE_CITATION_LOOKBACK_LINES), i).join('\n')}\n${line.slice(0, m.index)}`;
      const nearby = [...new Set([...window.matchAll(ANY_NAME)].map((n) => n[1]!))].filter((n): n is CitedName => n in CITED_DOCS);
      out.push({ file, line: i + 1, section: m[1]!, candidates: nearby.length > 0 ? nearby : [defaultDoc(file)], text: line.trim() });
    }
  });
  return out;
}

/** The numbered sections of a docs file: headings such as `## 4. Domain` or `#### 11.19 …`. */
export function sectionsOf(markdown: string): Set<string> {
  const out = new Set<string>();
  for (const m of markdown.matchAll(/^#{1,6} (\d+(?:\.\d+)*)\.?\s/gm)) out.add(m[1]!);
  return out;
}

const sectionCache = new Map<string, Set<string>>();
function docSections(name: CitedName): Set<string> {
  const file = CITED_DOCS[name];
  let s = sectionCache.get(file);
  if (!s) sectionCache.set(file, (s = sectionsOf(readRepoFile(file))));
  return s;
}

/** Whether the citation names a section that exists in one of its candidate documents. */
export function resolves(c: Citation): boolean {
  return c.candidates.some((name) => docSections(name).has(c.section));
}
