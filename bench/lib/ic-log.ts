/**
 * Reads a V8 `--log-ic` log (one line per inline-cache transition, beside the `code-creation` lines
 * that say which function holds each address) into the state each property-access site ended in.
 * A site that saw more receiver shapes (maps) than V8 tracks (`--max-valid-polymorphic-map-count`,
 * 4) goes megamorphic: every access there is a global stub-cache lookup instead of an inlined check.
 * bench/ic-sites.ts prints what this finds for the hub's and the baseline's processes side by side.
 *
 * Line formats (as node 20's V8, 11.3, writes them):
 *   code-creation,<type>,<kind>,<time>,<address>,<size>,<name>[,…]      name like "Foo node:net:512:40"
 *   code-move,<from>,<to>
 *   LoadIC,<pc>,<time>,<line>,<column>,<old state>,<new state>,<map>,<key>,<modifier>,<slow reason>
 * (also StoreIC, KeyedLoadIC, KeyedStoreIC). States: 0 uninitialized, . premonomorphic, 1 monomorphic,
 * ^ recompute handler, P polymorphic, N megamorphic, G generic, X no feedback.
 */

/**
 * One access site: a key read or written at a line and column. Its feedback is its function's, so
 * the transitions logged under an optimized caller that inlined it (`Writable.write` for `_write`'s
 * line 454) are the same site's.
 */
export interface IcSite {
  /** The function V8 first named it under, without that function's own position (`Socket._write node:net`); `?` if none. */
  fn: string;
  /** `<line>:<column>` of the access. */
  at: string;
  kind: string;
  key: string;
  /** The state the site was last seen moving to. */
  state: string;
  /** Distinct receiver maps the log saw at the site. */
  maps: number;
}

interface Code {
  start: number;
  end: number;
  name: string;
}

const IC_LINE = /^(?:Keyed)?(?:Load|Store)IC,/;
const NO_MAP = '0x000000000000';
/**
 * The holder of a transition logged while its function was interpreted: the pc is then inside the
 * bytecode, which the log does not name. A later transition from compiled code names it.
 */
const UNKNOWN = '?';

/** Splits a log line on commas outside double quotes (names may hold commas). */
export function splitLogLine(line: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) {
      out.push(field);
      field = '';
    } else field += ch;
  }
  out.push(field);
  return out;
}

/** `Foo node:net:512:40` → `Foo node:net` (the function's own position says nothing of the site's). */
function withoutPosition(name: string): string {
  return name.replace(/:\d+:\d+$/, '');
}

/** Feed it a log's lines in order; `sites()` is every site seen, in the order first seen. */
export class IcLogReader {
  private readonly codes: Code[] = [];
  private readonly byKey = new Map<string, IcSite & { seen: Set<string> }>();

  line(line: string): void {
    if (line.startsWith('code-creation,')) this.created(splitLogLine(line));
    else if (line.startsWith('code-move,')) this.moved(splitLogLine(line));
    else if (IC_LINE.test(line)) this.transition(line.split(','));
  }

  sites(): IcSite[] {
    return [...this.byKey.values()].map(({ seen: _seen, ...site }) => site);
  }

  private created(f: string[]): void {
    const start = Number.parseInt(f[4] ?? '', 16);
    const size = Number(f[5]);
    if (Number.isFinite(start) && Number.isFinite(size)) this.codes.push({ start, end: start + size, name: f[6] ?? '' });
  }

  private moved(f: string[]): void {
    const from = Number.parseInt(f[1] ?? '', 16);
    const to = Number.parseInt(f[2] ?? '', 16);
    const code = this.codeAt(from);
    if (code && code.start === from) this.codes.push({ start: to, end: to + (code.end - code.start), name: code.name });
  }

  /** The newest code object holding `pc` (addresses are reused, so the latest one that covers it). */
  private codeAt(pc: number): Code | undefined {
    for (let i = this.codes.length - 1; i >= 0; i--) {
      const code = this.codes[i];
      if (code && pc >= code.start && pc < code.end) return code;
    }
    return undefined;
  }

  private transition(f: string[]): void {
    const [kind = '', pc = '', , line = '', column = '', , state = '', map = '', logged = ''] = f;
    // A symbol's hash differs between processes: `symbol("kHandle" hash 1c00284d)` → `symbol("kHandle")`.
    const key = logged.replace(/ hash [0-9a-f]+\)$/, ')');
    const fn = withoutPosition(this.codeAt(Number.parseInt(pc, 16))?.name ?? UNKNOWN);
    const at = `${line}:${column}`;
    const id = siteKey(at, kind, key);
    let site = this.byKey.get(id);
    if (!site) {
      site = { fn, at, kind, key, state, maps: 0, seen: new Set() };
      this.byKey.set(id, site);
    }
    site.state = state;
    if (site.fn === UNKNOWN) site.fn = fn;
    if (map !== NO_MAP && !site.seen.has(map)) {
      site.seen.add(map);
      site.maps = site.seen.size;
    }
  }
}

function siteKey(at: string, kind: string, key: string): string {
  return `${at} ${kind} ${key}`;
}

/** A site by its source position, kind and key, the same in two processes' logs whichever function holds it there. */
export function siteId(site: IcSite): string {
  return siteKey(site.at, site.kind, site.key);
}

/**
 * The Markdown table of the sites (whose function matches `match`) that ended megamorphic in the
 * first log, each with its state in the second: where one process pays a lookup the other does not.
 */
export function megamorphicTable(first: IcSite[], second: IcSite[], match: RegExp): string {
  const other = new Map(second.map((s) => [siteId(s), s]));
  const rows = first.flatMap((s) => {
    const o = other.get(siteId(s));
    const fn = s.fn === UNKNOWN ? (o?.fn ?? UNKNOWN) : s.fn;
    if (s.state !== 'N' || !match.test(fn)) return [];
    return [`| ${fn} | ${s.at} | ${s.key} | N (${s.maps} maps) | ${o ? `${o.state} (${o.maps} maps)` : 'not reached'} |`];
  });
  return ['| function | line:column | key | first | second |', '| --- | --- | --- | --- | --- |', ...rows.sort()].join('\n');
}
