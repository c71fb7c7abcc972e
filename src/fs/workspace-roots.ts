import fs from 'node:fs/promises';
import path from 'node:path';
import { HubError } from '../errors.js';
import type { SecretPaths } from './secret-paths.js';

/**
 * Why roots inside the hub's private files can never hold a session, and what to do: the start
 * refusal and `zcode-hub doctor` say the same.
 */
export function privateRootsProblem(roots: readonly string[], stateDir: string): { message: string; fix: string } {
  return {
    message: `workspace root ${roots.join(', ')} is inside the hub's private files (state dir ${stateDir}), where no session may work`,
    fix: 'choose a project folder outside it with --workspace DIR, or keep the state elsewhere with --state-dir DIR',
  };
}

/**
 * Workspace roots: the directories sessions may work in. A session's cwd — and
 * any `workspace` a REST call names — must be an absolute path to an existing directory that,
 * after `realpath`, is a root or inside one, and not inside the hub's own secrets (the state
 * directory …). Every refusal names the roots, so the caller knows what would be accepted.
 */
export class WorkspaceRoots {
  constructor(
    /** The configured roots, absolute, as the operator wrote them. */
    readonly roots: readonly string[],
    /** The hub's secrets (the one instance the composition root builds: it caches their inodes). */
    private readonly secrets: SecretPaths,
  ) {}

  private refuse(code: 'HUB_ERR_BAD_REQUEST' | 'HUB_ERR_FORBIDDEN', cwd: string, why: string): HubError {
    const shown = cwd.slice(0, 512);
    return new HubError(code, `${why}: ${shown}. Pick an existing project folder inside a workspace root (${this.roots.join(', ')})`, {
      cwd: cwd.slice(0, 4096),
      workspaces: this.roots,
    });
  }

  /** The real path of `cwd` when it is allowed; a HubError naming the roots when not. */
  async resolve(cwd: string): Promise<string> {
    if (cwd.includes('\0') || !path.isAbsolute(cwd))
      throw this.refuse('HUB_ERR_BAD_REQUEST', cwd, 'The workspace must be an absolute path');
    let real: string;
    try {
      real = await fs.realpath(cwd);
    } catch {
      throw this.refuse('HUB_ERR_BAD_REQUEST', cwd, 'No such folder');
    }
    const stat = await fs.stat(real).catch(() => undefined);
    if (!stat?.isDirectory()) throw this.refuse('HUB_ERR_BAD_REQUEST', cwd, 'Not a folder');
    if (!(await this.insideARoot(real))) throw this.refuse('HUB_ERR_FORBIDDEN', cwd, 'Outside the workspace roots');
    if (await this.secrets.isSecret(real)) throw this.refuse('HUB_ERR_FORBIDDEN', cwd, "Inside the hub's private files");
    return real;
  }

  /** Throws unless `cwd` is allowed (see `resolve`). */
  async check(cwd: string): Promise<void> {
    await this.resolve(cwd);
  }

  /**
   * For an existing session: one whose directory is no longer allowed (the roots changed) can be
   * watched but not given work. Throws HUB_ERR_FORBIDDEN naming the roots.
   */
  async checkSession(cwd: string): Promise<void> {
    try {
      await this.resolve(cwd);
    } catch {
      throw new HubError(
        'HUB_ERR_FORBIDDEN',
        `This session works in ${cwd.slice(0, 512)}, which is not inside a workspace root (${this.roots.join(', ')}): it can be watched, not prompted`,
        { cwd: cwd.slice(0, 4096), workspaces: this.roots },
      );
    }
  }

  /** The configured roots that are the hub's private files or inside them: no session could ever start there. */
  async privateRoots(): Promise<string[]> {
    const found: string[] = [];
    for (const root of this.roots) {
      const real = await fs.realpath(root).catch(() => undefined);
      if (real !== undefined && (await this.secrets.isSecret(real))) found.push(root);
    }
    return found;
  }

  private async insideARoot(real: string): Promise<boolean> {
    return (await this.rootOf(real)) !== undefined;
  }

  /** The real path of the (first) root that holds the real path `real`, if any. */
  async rootOf(real: string): Promise<string | undefined> {
    for (const root of this.roots) {
      const r = await fs.realpath(root).catch(() => undefined);
      if (r === undefined) continue;
      if (real === r || real.startsWith(r.endsWith(path.sep) ? r : r + path.sep)) return r;
    }
    return undefined;
  }
}
