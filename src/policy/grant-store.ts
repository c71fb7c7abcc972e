/**
 * The "always allow" grants on disk (docs/SECURITY.md "Always allow"): `always-grants.json` in
 * the state dir, mode 0600, replaced atomically, with a `revision` every change bumps — like the
 * policy file beside it. Read once at start (an unreadable file stops the start: grants must not
 * silently vanish, nor be silently kept when an admin meant to edit them) and kept in memory; the
 * hub reads `grants` for every permission request, so a removal holds for the next one.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { HubError } from '../errors.js';
import { writeFileAtomic } from '../fs/secure-file.js';
import type { Limits } from '../limits.js';
import type { AlwaysGrant, GrantAuthor, GrantRule } from './always-grants.js';
import { readStateFile } from './state-file.js';

const text = z.string().min(1);
/** One grant as stored and as `GET /api/policy/grants` lists it. */
export const grantSchema = z.strictObject({
  id: text,
  workspace: text,
  /** Gone once that session is deleted: the grant stays, the session it was set in is forgotten. */
  sessionId: text.optional(),
  toolName: text,
  ruleContent: z.string().optional(),
  by: z.strictObject({
    person: text,
    device: text,
    tokenId: text,
    scope: z.enum(['operate', 'admin']),
    local: z.boolean(),
    client: z.string().optional(),
  }),
  at: z.number().int().min(0),
});
/** The file, and the list `GET /api/policy/grants` answers. */
export const grantFileSchema = z.strictObject({ revision: z.number().int().min(0), grants: z.array(grantSchema) });
export type GrantFile = z.infer<typeof grantFileSchema>;

/** Why a grant is not kept (the answer that asked for it is refused, the request stays open). */
export class GrantRefused extends Error {}

/** The stored grants. */
export class GrantStore {
  private state: GrantFile;

  constructor(
    private readonly file: string,
    private readonly limits: Pick<Limits, 'alwaysGrantsMax' | 'alwaysGrantContentMax'>,
  ) {
    this.state = readStateFile(file, grantFileSchema, { revision: 0, grants: [] });
  }

  /** The grants in force, oldest first (not copied: read-only by contract). */
  get grants(): readonly AlwaysGrant[] {
    return this.state.grants;
  }

  /** The stored file's content (a copy). */
  get current(): GrantFile {
    return structuredClone(this.state);
  }

  /**
   * Why these rules cannot be kept for this person in this workspace, or undefined when they can:
   * more than `alwaysGrantsMax` grants with the new ones (a rule they granted already is not new),
   * or a rule content over `alwaysGrantContentMax` characters. Checked before the answer counts.
   */
  refusal(rules: readonly GrantRule[], workspace: string, person: string): string | undefined {
    const max = this.limits.alwaysGrantContentMax;
    if (rules.some((r) => (r.ruleContent?.length ?? 0) > max))
      return `This "always allow" names more than ${max} characters; allow it once instead`;
    if (this.state.grants.length + this.fresh(rules, workspace, person).length > this.limits.alwaysGrantsMax)
      return `The hub keeps at most ${this.limits.alwaysGrantsMax} "always allow" grants: an admin can remove some on the policy screen`;
    return undefined;
  }

  /**
   * Keeps one grant per rule. A rule this person already granted for the workspace is not kept
   * twice; another person's grant of the same rule is kept beside it (it may cover other prompts).
   */
  add(rules: readonly GrantRule[], where: { workspace: string; sessionId: string }, by: GrantAuthor, at = Date.now()): AlwaysGrant[] {
    const why = this.refusal(rules, where.workspace, by.person);
    if (why !== undefined) throw new GrantRefused(why);
    const fresh = this.fresh(rules, where.workspace, by.person).map(
      (r): AlwaysGrant => ({ id: `g_${randomBytes(6).toString('hex')}`, ...where, ...r, by, at }),
    );
    if (fresh.length > 0) this.write([...this.state.grants, ...fresh]);
    return fresh;
  }

  /** The rules this person has not granted in this workspace yet. */
  private fresh(rules: readonly GrantRule[], workspace: string, person: string): GrantRule[] {
    return rules.filter(
      (r) =>
        !this.state.grants.some(
          (g) => g.workspace === workspace && g.toolName === r.toolName && g.ruleContent === r.ruleContent && g.by.person === person,
        ),
    );
  }

  /**
   * Sessions were deleted: the grants set in them stay (they hold for their workspace, as the
   * agent's project rule did, and only an admin removes one), but no longer name the session.
   */
  forgetSessions(sessionIds: ReadonlySet<string>): void {
    const named = (g: AlwaysGrant) => g.sessionId !== undefined && sessionIds.has(g.sessionId);
    if (!this.state.grants.some(named)) return;
    this.write(
      this.state.grants.map((g) => {
        if (!named(g)) return g;
        const { sessionId: _deleted, ...kept } = g;
        return kept;
      }),
    );
  }

  /** Removes a grant: 404 when there is none with this id. */
  remove(id: string): AlwaysGrant {
    const grant = this.state.grants.find((g) => g.id === id);
    if (grant === undefined) throw new HubError('HUB_ERR_NOT_FOUND', `No "always allow" grant ${id}`);
    this.write(this.state.grants.filter((g) => g.id !== id));
    return grant;
  }

  private write(grants: AlwaysGrant[]): void {
    const next: GrantFile = { revision: this.state.revision + 1, grants };
    writeFileAtomic(this.file, `${JSON.stringify(next, null, 2)}\n`);
    this.state = next;
  }
}
