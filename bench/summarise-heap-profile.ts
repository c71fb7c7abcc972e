/**
 * `node --import tsx bench/summarise-heap-profile.ts <file.heapprofile> [topN]`: the sampled bytes
 * of a `--heap-prof` profile by area and by allocating function, as Markdown. Node's `--heap-prof`
 * samples allocations (every 512 KiB by default) and writes those whose objects were still alive
 * when the process exited, so the figures say what an area *keeps*, not all that it churns.
 */
import fs from 'node:fs';
import { z } from 'zod';

interface Node {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: Node[];
}
const nodeSchema: z.ZodType<Node> = z.lazy(() =>
  z.object({
    callFrame: z.object({ functionName: z.string(), url: z.string(), lineNumber: z.number() }),
    selfSize: z.number(),
    children: z.array(nodeSchema),
  }),
);

/** The area a script URL belongs to: `src/<dir>`, a package name, or node internals. */
function areaOf(url: string): string {
  const src = /\/(?:src|dist)\/([^/]+)\//.exec(url);
  if (src && !url.includes('node_modules')) return `src/${src[1]}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  return url.startsWith('node:') ? 'node internals' : url === '' ? '(VM)' : url.split('/').pop()!;
}

const [file, top] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: summarise-heap-profile <file.heapprofile> [topN]\n');
  process.exitCode = 2;
} else {
  const root = z.object({ head: nodeSchema }).parse(JSON.parse(fs.readFileSync(file, 'utf8'))).head;
  const byArea = new Map<string, number>();
  const byFn = new Map<string, number>();
  let total = 0;
  const walk = (n: Node) => {
    if (n.selfSize > 0) {
      total += n.selfSize;
      const where = `${n.callFrame.functionName || '(anonymous)'} | ${n.callFrame.url.replace(/^.*\/(src|dist|node_modules)\//, '$1/')}:${n.callFrame.lineNumber + 1}`;
      byArea.set(areaOf(n.callFrame.url), (byArea.get(areaOf(n.callFrame.url)) ?? 0) + n.selfSize);
      byFn.set(where, (byFn.get(where) ?? 0) + n.selfSize);
    }
    for (const c of n.children) walk(c);
  };
  walk(root);
  const kib = (b: number) => (b / 1024).toFixed(0);
  const out = [`Sampled live bytes: ${kib(total)} KiB`, '', '| area | KiB | % |', '| --- | --- | --- |'];
  for (const [a, b] of [...byArea].sort((x, y) => y[1] - x[1]).slice(0, 15))
    out.push(`| ${a} | ${kib(b)} | ${((b / total) * 100).toFixed(1)} |`);
  out.push('', '| function | where | KiB | % |', '| --- | --- | --- | --- |');
  for (const [w, b] of [...byFn].sort((x, y) => y[1] - x[1]).slice(0, top ? Number(top) : 25)) {
    const [fn, at] = w.split(' | ');
    out.push(`| ${fn} | ${at} | ${kib(b)} | ${((b / total) * 100).toFixed(1)} |`);
  }
  process.stdout.write(`${out.join('\n')}\n`);
}
