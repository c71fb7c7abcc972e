import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Logger } from '../logger.js';
import { writeFileAtomic } from '../fs/secure-file.js';

/**
 * Persisted sessions: `<dataDir>/sessions/<sessionId>.json`, one file per session holding its
 * SessionInfo, messages and usage. Like the real CLI, conversations survive a restart while
 * runtimes (event logs, seq counters, pending interactions) do not (§4.2, §5.2).
 */
const MessageSchema = z.looseObject({
  info: z.looseObject({ messageId: z.string(), sessionId: z.string(), role: z.enum(['user', 'assistant']) }),
  parts: z.array(z.looseObject({ partId: z.string(), type: z.string() })),
});
export type StoredMessage = z.infer<typeof MessageSchema>;

const InfoSchema = z.looseObject({
  sessionId: z.string().min(1),
  workspace: z.looseObject({ workspacePath: z.string(), workspaceKey: z.string() }),
  sessionKind: z.string(),
  title: z.string(),
  mode: z.string(),
  status: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
});

export const UsageSchema = z.strictObject({
  totalTokens: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  reasoningTokens: z.number(),
  cacheCreationTokens: z.number(),
  cacheReadTokens: z.number(),
  modelRequestCount: z.number(),
  modelErrorCount: z.number(),
});
export type UsageCounters = z.infer<typeof UsageSchema>;

/**
 * What a sub-agent child (`sessionKind: subagent_child`) keeps beyond its SessionInfo: the
 * fields of a §4.16 `Sub` that SessionInfo has no place for. `childSessionId` is the session id
 * and `title` its title. Times are ms.
 */
export const SubagentRecordSchema = z.strictObject({
  agentId: z.string().min(1),
  toolCallId: z.string().min(1),
  subagentType: z.string().min(1),
  summary: z.string().optional(),
  startedAt: z.number(),
  endedAt: z.number().optional(),
  status: z.enum(['running', 'success', 'failed', 'cancelled']),
});
export type SubagentRecord = z.infer<typeof SubagentRecordSchema>;

export const StoredSessionSchema = z.strictObject({
  version: z.literal(1),
  info: InfoSchema,
  thoughtLevel: z.string().optional(),
  turnCount: z.number().int().nonnegative(),
  usage: UsageSchema,
  messages: z.array(MessageSchema),
  subagent: SubagentRecordSchema.optional(),
});
export type StoredSession = z.infer<typeof StoredSessionSchema>;

export function emptyUsage(): UsageCounters {
  return {
    totalTokens: 0,
    inputTokens: 0,
    outputTokens: 0,
    reasoningTokens: 0,
    cacheCreationTokens: 0,
    cacheReadTokens: 0,
    modelRequestCount: 0,
    modelErrorCount: 0,
  };
}

/** What `session/list` and the sub-agent listing read of a session: everything but its messages. */
export type StoredSessionHead = Omit<StoredSession, 'messages'>;

/** What identifies one version of a session file: an atomic write (temp + rename) gives a new inode. */
interface FileStamp {
  ino: number;
  size: number;
  mtimeMs: number;
}

const SAFE_ID = /^[A-Za-z0-9_.:-]{1,200}$/;

export class SessionStore {
  private readonly dir: string;
  /**
   * Heads of the files read so far, by file name, with the stamp they were read at. Without it
   * every `session/list` parsed every conversation whole: 100 sessions of 1,000 turns took
   * seconds per list (bench B-LONG). A file whose stamp changed is read again.
   */
  private readonly heads = new Map<string, { stamp: FileStamp; head: StoredSessionHead }>();

  constructor(
    dataDir: string,
    private readonly log: Logger,
  ) {
    this.dir = path.join(dataDir, 'sessions');
  }

  private file(sessionId: string): string | undefined {
    // Session ids come from clients: never let one escape the directory.
    return SAFE_ID.test(sessionId) && !sessionId.includes('..') ? path.join(this.dir, `${encodeURIComponent(sessionId)}.json`) : undefined;
  }

  load(sessionId: string): StoredSession | undefined {
    const file = this.file(sessionId);
    if (!file || !fs.existsSync(file)) return undefined;
    return this.readFile(file);
  }

  save(session: StoredSession): void {
    const file = this.file(session.info.sessionId);
    if (!file) return;
    writeFileAtomic(file, JSON.stringify(session));
  }

  delete(sessionId: string): boolean {
    const file = this.file(sessionId);
    if (!file || !fs.existsSync(file)) return false;
    fs.rmSync(file, { force: true });
    return true;
  }

  /** Every persisted session without its messages (broken files are logged and skipped). */
  list(): StoredSessionHead[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      this.heads.clear();
      return [];
    }
    const out: StoredSessionHead[] = [];
    const present = new Set<string>();
    for (const name of names) {
      if (!name.endsWith('.json')) continue;
      present.add(name);
      const head = this.readHead(name);
      if (head) out.push(head);
    }
    for (const name of this.heads.keys()) if (!present.has(name)) this.heads.delete(name);
    return out;
  }

  private readHead(name: string): StoredSessionHead | undefined {
    const file = path.join(this.dir, name);
    let stamp: FileStamp;
    try {
      const st = fs.statSync(file);
      stamp = { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
    } catch {
      this.heads.delete(name);
      return undefined; // deleted since the directory was read
    }
    const cached = this.heads.get(name);
    if (cached && cached.stamp.ino === stamp.ino && cached.stamp.size === stamp.size && cached.stamp.mtimeMs === stamp.mtimeMs)
      return cached.head;
    const session = this.readFile(file);
    if (!session) {
      this.heads.delete(name);
      return undefined;
    }
    const { messages: _messages, ...head } = session;
    this.heads.set(name, { stamp, head });
    return head;
  }

  private readFile(file: string): StoredSession | undefined {
    try {
      const parsed = StoredSessionSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
      if (parsed.success) return parsed.data;
      this.log.warn({ file, issues: parsed.error.issues.slice(0, 3) }, 'persisted session is invalid; skipped');
    } catch (err) {
      this.log.warn({ file, err }, 'persisted session unreadable; skipped');
    }
    return undefined;
  }
}
