/**
 * Terminal text → styled runs, and search over it (pure; loaded with the terminal panel only).
 * ANSI SGR sequences are read by `anser` (a maintained parser, also used by Jupyter front
 * ends) into runs with colour *classes*, so the colours come from our stylesheet (contrast in
 * both themes) and the text is rendered as text nodes — never as HTML.
 */
import Anser from 'anser';

/** A run of text with one style: `cls` holds anser's colour classes and our decoration classes. */
export interface Run {
  text: string;
  cls: string;
}

const DECORATIONS = new Set(['bold', 'dim', 'italic', 'underline', 'strikethrough']);

/** The runs of `text` (escape sequences removed); a carriage-return progress line keeps its last state. */
export function runsOf(text: string): Run[] {
  const runs: Run[] = [];
  for (const e of Anser.ansiToJson(text, { json: true, use_classes: true, remove_empty: true })) {
    const cls: string[] = [];
    // 256-colour and true-colour codes have no class of ours: shown in the default colour.
    if (e.fg && /^ansi-(bright-)?[a-z]+$/.test(e.fg)) cls.push(`${e.fg}-fg`);
    if (e.bg && /^ansi-(bright-)?[a-z]+$/.test(e.bg)) cls.push(`${e.bg}-bg`);
    for (const d of e.decorations ?? []) if (DECORATIONS.has(d)) cls.push(`ansi-${d}`);
    const last = runs.at(-1);
    const joined = cls.join(' ');
    if (last !== undefined && last.cls === joined) last.text += e.content;
    else runs.push({ text: e.content, cls: joined });
  }
  return runs;
}

/** The plain text of the runs (what Copy copies and Search searches). */
export function plainOf(runs: readonly Run[]): string {
  return runs.map((r) => r.text).join('');
}

/** Start offsets of every case-insensitive occurrence of `query` in `plain` (non-overlapping), at most `max`. */
export function findAll(plain: string, query: string, max: number): number[] {
  const q = query.toLowerCase();
  if (q.length === 0) return [];
  const hay = plain.toLowerCase();
  const out: number[] = [];
  for (let i = hay.indexOf(q); i >= 0 && out.length < max; i = hay.indexOf(q, i + q.length)) out.push(i);
  return out;
}

/** A piece to render: a run's text, marked when it is (part of) a match; `current` for the selected match. */
export interface Piece {
  text: string;
  cls: string;
  match?: number;
}

/** Splits the runs at match boundaries so each match can be wrapped in `<mark>` (match index in `match`). */
export function piecesOf(runs: readonly Run[], starts: readonly number[], length: number): Piece[] {
  if (starts.length === 0 || length === 0) return runs.map((r) => ({ text: r.text, cls: r.cls }));
  const out: Piece[] = [];
  let offset = 0;
  let m = 0;
  for (const r of runs) {
    let pos = 0;
    while (pos < r.text.length) {
      const at = offset + pos;
      while (m < starts.length && (starts[m] as number) + length <= at) m += 1;
      const start = starts[m];
      if (start === undefined || start >= offset + r.text.length) {
        out.push({ text: r.text.slice(pos), cls: r.cls });
        break;
      }
      if (start > at) {
        out.push({ text: r.text.slice(pos, start - offset), cls: r.cls });
        pos = start - offset;
        continue;
      }
      const end = Math.min(start + length - offset, r.text.length);
      out.push({ text: r.text.slice(pos, end), cls: r.cls, match: m });
      pos = end;
    }
    offset += r.text.length;
  }
  return out;
}
