import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * The (dev, ino) of every regular file under the denied directories (secret-paths.ts), so a hard
 * link to any of them — `hub-id`, `daemon.lock`, a config of `.zcode/v2` — is refused whatever
 * its name in the workspace. Built on the first read of a file with more than one link and built
 * again only when that file's inode changed after the last build began (a new link, a new file:
 * both set its ctime), so browsing a tree full of old hard links (a pnpm store) costs one lookup
 * per file. At most `max` files are indexed; past it the index cannot clear anything (fail closed).
 */
export class DeniedInodes {
  private keys = new Set<string>();
  private complete = false;
  /** Wall-clock start of the last completed build; -Infinity before the first. */
  private builtFrom = Number.NEGATIVE_INFINITY;
  private building: Promise<void> | undefined;

  constructor(
    private readonly dirs: () => Promise<string[]>,
    private readonly max: number,
  ) {}

  /** True when the open file is a file of a denied directory under another name, or cannot be cleared. */
  async denies(stat: { dev: number; ino: number; ctimeMs: number }): Promise<boolean> {
    const askedAt = Date.now();
    // An inode last changed before the last build began (with slack for coarse timestamps) is
    // in it if it is anywhere denied; else wait for a build begun after this question (at most
    // the one under way, then one more).
    if (stat.ctimeMs + CTIME_SLACK_MS >= this.builtFrom)
      for (let round = 0; round < 3 && this.builtFrom < askedAt; round++) await this.rebuild();
    return this.keys.has(`${stat.dev}:${stat.ino}`) || !this.complete;
  }

  private rebuild(): Promise<void> {
    this.building ??= this.build().finally(() => (this.building = undefined));
    return this.building;
  }

  private async build(): Promise<void> {
    const startedAt = Date.now();
    const keys = new Set<string>();
    let complete = true;
    const stack = [...new Set(await this.dirs())];
    walk: while (stack.length > 0) {
      const dir = stack.pop() as string;
      let entries: import('node:fs').Dirent[];
      try {
        entries = await fs.readdir(dir, { withFileTypes: true });
      } catch {
        continue; // missing or unreadable: nothing of it can be linked through us
      }
      for (const entry of entries) {
        const p = path.join(dir, entry.name);
        if (entry.isDirectory()) stack.push(p);
        if (!entry.isFile()) continue; // symlinks are caught by path, after realpath
        if (keys.size >= this.max) {
          complete = false;
          break walk;
        }
        const s = await fs.lstat(p).catch(() => undefined);
        if (s?.isFile()) keys.add(`${s.dev}:${s.ino}`);
      }
    }
    this.keys = keys;
    this.complete = complete;
    this.builtFrom = startedAt;
  }
}

/** Slack on ctime comparisons for filesystems that keep whole seconds. */
const CTIME_SLACK_MS = 1_000;
