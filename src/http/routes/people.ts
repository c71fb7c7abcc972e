import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthServices } from '../../auth/auth-services.js';
import { ADMIN_PERSON } from '../../auth/people.js';
import { tokenView, tokenViewSchema, type TokenView } from './tokens.js';

/** One person and their device tokens, as `GET /api/people` shows them. */
export const personViewSchema = z.object({
  person: z.string(),
  /** True for `admin`, who also holds the state-dir admin token. */
  admin: z.boolean(),
  /** Tokens that work now. */
  active: z.number().int().nonnegative(),
  lastSeenAt: z.number().optional(),
  tokens: z.array(tokenViewSchema),
});
export type PersonView = z.infer<typeof personViewSchema>;

/** Tokens grouped by person, people by name; `admin` is always there (the admin token is theirs). */
export function groupByPerson(tokens: readonly TokenView[]): PersonView[] {
  const byPerson = new Map<string, TokenView[]>([[ADMIN_PERSON, []]]);
  for (const t of tokens) byPerson.set(t.person, [...(byPerson.get(t.person) ?? []), t]);
  return [...byPerson]
    .map(([person, held]) => {
      const seen = held.map((t) => t.lastSeenAt).filter((at): at is number => at !== undefined);
      return {
        person,
        admin: person === ADMIN_PERSON,
        active: held.filter((t) => t.state === 'active').length,
        ...(seen.length === 0 ? {} : { lastSeenAt: Math.max(...seen) }),
        tokens: held,
      };
    })
    .sort((a, b) => a.person.localeCompare(b.person));
}

/** `GET /api/people` for admins (docs/SECURITY.md "People"); a person is changed on their token, `PATCH /api/tokens/:id`. */
export const peopleRoutes: FastifyPluginAsync<{ auth: AuthServices }> = async (app, { auth }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/people',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'People and their device tokens',
        tags: ['tokens'],
        response: { 200: z.object({ people: z.array(personViewSchema) }) },
      },
    },
    async () => ({ people: groupByPerson(auth.tokens.list().map((t) => tokenView(t))) }),
  );
};
