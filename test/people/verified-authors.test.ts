import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AcpWsClient, InboundMessage } from '../helpers/acp-ws-client.js';
import type { HubHarness } from '../helpers/hub-harness.js';
import { until } from '../helpers/until.js';
import { restartableHub } from '../helpers/restartable-hub.js';

const { workspace, start } = restartableHub('zch-verified-');

const author = z.looseObject({
  name: z.string(),
  person: z.string().optional(),
  device: z.string().optional(),
  tokenId: z.string().optional(),
  client: z.string().optional(),
});
type Author = z.infer<typeof author>;
const zcodeMeta = z.looseObject({ zcode: z.looseObject({ promptedBy: author.optional(), answeredBy: author.optional() }).optional() });
const update = z.looseObject({
  _meta: zcodeMeta.optional(),
  update: z.looseObject({ sessionUpdate: z.string(), toolCallId: z.string().optional(), _meta: zcodeMeta.nullish() }),
});

/** The verified fields of an author, for comparison. */
const who = (a: Author | undefined) =>
  a && { name: a.name, person: a.person, device: a.device, tokenId: a.tokenId, ...(a.client === undefined ? {} : { client: a.client }) };

/** Every prompt author and answer author in a client's session/update stream. */
function authors(messages: readonly InboundMessage[]) {
  const prompted: Author[] = [];
  const answered: Author[] = [];
  for (const m of messages) {
    if (m.method !== 'session/update') continue;
    const p = update.parse(m.params);
    if (p.update.sessionUpdate === 'user_message_chunk') {
      const a = p.update._meta?.zcode?.promptedBy ?? p._meta?.zcode?.promptedBy;
      if (a) prompted.push(a);
    }
    const by = p.update._meta?.zcode?.answeredBy;
    if (by) answered.push(by);
  }
  return { prompted, answered };
}

const tokenIdOf = async (hub: HubHarness, token: string) =>
  z.object({ identity: z.object({ tokenId: z.string() }) }).parse(await (await hub.api('/api/me', { token })).json()).identity.tokenId;

describe('[PPL-01] verified authors', () => {
  it('a token of ann whose client says "Bob" is ann everywhere, and stays ann in history after a restart', async () => {
    const hub = await start();
    const annToken = await hub.token('operate', 'Ann phone', 'ann');
    const bobToken = await hub.token('operate', 'Bob laptop', 'bob');
    const annId = await tokenIdOf(hub, annToken);
    const bobId = await tokenIdOf(hub, bobToken);
    const ANN = { name: 'ann · Ann phone', person: 'ann', device: 'Ann phone', tokenId: annId, client: 'Bob' };
    const BOB = { name: 'bob · Bob laptop', person: 'bob', device: 'Bob laptop', tokenId: bobId, client: 'Ann phone' };

    const ann = await hub.client({ token: annToken });
    const init = z
      .object({ _meta: z.object({ zcode: z.looseObject({ identity: z.looseObject({}) }) }) })
      .parse(await ann.initialize({ name: 'Bob' }));
    expect(init._meta.zcode.identity).toMatchObject({ name: 'Ann phone', person: 'ann', tokenId: annId, scope: 'operate' });
    const bob: AcpWsClient = await hub.initializedClient({ token: bobToken, name: 'Ann phone' });
    const { sessionId } = await ann.request<{ sessionId: string }>('session/new', { cwd: workspace, mcpServers: [] });
    await bob.request('session/load', { sessionId, cwd: workspace, mcpServers: [] });

    // Presence: the verified person and device; the self-declared name only as `client`.
    const presence = z.object({ clients: z.array(author.extend({ clientId: z.string() })) });
    const seen = await until(() => {
      const last = bob.notifications('_zcode/presence').at(-1);
      const list = last ? presence.parse(last).clients : [];
      return list.length === 2 ? list : undefined;
    }, 'presence of both clients');
    expect(seen.map(who).sort((a, b) => (a?.person ?? '').localeCompare(b?.person ?? ''))).toEqual([ANN, BOB]);

    // Ann's prompt with a permission card, answered by Bob's client.
    const turn = ann.request<{ stopReason: string }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'permission please' }],
    });
    const ask = await bob.waitForRequest('session/request_permission');
    const turnState = z.object({ promptedBy: author.optional() });
    expect(
      who(
        bob
          .notifications('_zcode/turn_state')
          .map((n) => turnState.parse(n).promptedBy)
          .find(Boolean),
      ),
    ).toEqual(ANN);
    bob.answer(ask.id, { outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect((await turn).stopReason).toBe('end_turn');
    await until(() => ann.notifications('_zcode/interaction_resolved').length > 0 || undefined, 'the resolution');
    const resolved = z.object({ resolvedBy: author }).parse(ann.notifications('_zcode/interaction_resolved')[0]);
    expect(who(resolved.resolvedBy)).toEqual(BOB);
    const live = authors(bob.messages);
    expect(live.prompted.map(who)).toEqual([ANN]);
    await until(() => authors(ann.messages).answered.length > 0 || undefined, 'the answered card');
    expect(authors(ann.messages).answered.map(who)).toEqual([BOB]);

    // The inbox (REST): a pending card, answered over REST by Bob's token — no client there.
    const second = ann.request<{ stopReason: string }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'permission please' }],
    });
    await bob.waitFor(() => (bob.requests('session/request_permission').length === 2 ? true : undefined));
    const inbox = z.object({ interactions: z.array(z.looseObject({ interactionId: z.string() })) });
    const pending = inbox.parse(await (await hub.api('/api/interactions', { token: bobToken })).json()).interactions;
    expect(pending).toHaveLength(1);
    const id = pending[0]?.interactionId ?? '';
    const answer = (token: string) =>
      hub.api(`/api/interactions/${id}/answer`, {
        method: 'POST',
        token,
        body: JSON.stringify({ optionId: 'allow_once' }),
        headers: { 'content-type': 'application/json' },
      });
    const won = await answer(bobToken);
    expect(won.status).toBe(200);
    const { name, person, device, tokenId } = BOB;
    expect(z.object({ interaction: z.object({ resolvedBy: author }) }).parse(await won.json()).interaction.resolvedBy).toEqual({
      name,
      person,
      device,
      tokenId,
    });
    const lost = await answer(annToken);
    expect(lost.status).toBe(409);
    expect(JSON.stringify(await lost.json())).toContain('"person":"bob"');
    expect((await second).stopReason).toBe('end_turn');

    // The audit log: the verified identity, and the client's claim beside it.
    const entries = z
      .object({ entries: z.array(z.looseObject({ action: z.string(), who: z.looseObject({}) })) })
      .parse(await (await hub.api('/api/audit?limit=500')).json()).entries;
    expect(entries.find((e) => e.action === 'prompt')?.who).toMatchObject({
      tokenId: annId,
      name: 'Ann phone',
      person: 'ann',
      client: 'Bob',
    });
    expect(entries.filter((e) => e.action === 'answer').map((e) => e.who)).toEqual([
      expect.objectContaining({ person: 'bob', name: 'Bob laptop', client: 'Ann phone' }),
      expect.objectContaining({ person: 'bob', name: 'Bob laptop' }),
    ]);

    // History after a restart: still ann, device "Ann phone", client "Bob"; the answers still Bob's.
    await hub.close();
    const again = await start();
    const reader = await again.initializedClient({ token: await again.token('view', 'Reader') });
    await reader.request('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    const replayed = authors(reader.messages);
    expect(replayed.prompted.map(who)).toEqual([ANN, ANN]);
    expect(replayed.answered.map(who)).toEqual([BOB, { name, person, device, tokenId }]);
  }, 180_000);
});
