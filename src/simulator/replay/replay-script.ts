/**
 * A wire recording (docs/APP-SERVER.md §15.3, written by src/backend/wire-recorder.ts) read as
 * a script for `zcode-hub sim --replay FILE`: each message the hub wrote is a *cue*, and the
 * messages the child wrote after it (until the next cue) are that cue's answer group — except a
 * response, which joins the group of the request it answers. Only the
 * first child of the recording is replayed (a hub restart spawns a new replayer, which starts
 * over).
 */
import { z } from 'zod';

const lineSchema = z.looseObject({
  dir: z.enum(['in', 'out', 'meta']),
  t: z.number().nonnegative(),
  msg: z.record(z.string(), z.unknown()).optional(),
  event: z.string().optional(),
});

const idSchema = z.union([z.string(), z.number().int()]);

/** One message the child wrote, at `t` ms of the recording. */
export interface RecordedMessage {
  t: number;
  msg: Record<string, unknown>;
}

/** A message the hub wrote: a request (matched by method and order) or an answer to a reverse request (matched by id). */
export interface ReplayCue {
  kind: 'request' | 'response';
  id: string | number;
  /** Requests only. */
  method?: string;
  params?: unknown;
  t: number;
  /** What the child wrote after it, until the next cue. */
  group: RecordedMessage[];
}

export interface ReplayScript {
  /** What the child wrote before the hub's first message. */
  initial: RecordedMessage[];
  cues: ReplayCue[];
}

const idKey = (id: unknown): string => `${typeof id}:${String(id)}`;
const isResponse = (msg: Record<string, unknown>): boolean => msg['method'] === undefined && ('result' in msg || 'error' in msg);

/** Parses a recording; throws an Error naming the line when one is not a recording line. */
export function readReplayScript(text: string): ReplayScript {
  const script: ReplayScript = { initial: [], cues: [] };
  /** The answer group of each request sent so far, by id. */
  const requests = new Map<string, RecordedMessage[]>();
  let spawns = 0;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (raw === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (err) {
      throw new Error(`line ${i + 1}: not JSON (${(err as Error).message})`);
    }
    const parsed = lineSchema.safeParse(value);
    if (!parsed.success) throw new Error(`line ${i + 1}: not a recording line (${parsed.error.issues[0]?.message ?? 'invalid'})`);
    const line = parsed.data;
    if (line.dir === 'meta') {
      if (line.event === 'spawn' && ++spawns > 1) break;
      if (line.event === 'exit' || line.event === 'limit') break;
      continue;
    }
    if (!line.msg) throw new Error(`line ${i + 1}: a ${line.dir} line without msg`);
    if (line.dir === 'in') {
      // A response goes with the request it answers, even when the hub had sent more since: a
      // hub that waits for it before its next request (the probe does) still gets it.
      const answered = isResponse(line.msg) ? requests.get(idKey(line.msg['id'])) : undefined;
      const last = script.cues.at(-1);
      (answered ?? last?.group ?? script.initial).push({ t: line.t, msg: line.msg });
      continue;
    }
    const id = idSchema.safeParse(line.msg['id']);
    if (!id.success) continue; // a notification of the hub: the child ignores them (§1.4)
    const method = line.msg['method'];
    const cue: ReplayCue =
      typeof method === 'string'
        ? { kind: 'request', id: id.data, method, params: line.msg['params'], t: line.t, group: [] }
        : { kind: 'response', id: id.data, t: line.t, group: [] };
    if (cue.kind === 'request') requests.set(idKey(cue.id), cue.group);
    script.cues.push(cue);
  }
  return script;
}
