/**
 * An answer the hub refuses is shown, not dropped (docs/CLIENT-PROTOCOL.md "Refusals"): Bo's
 * phone answers a permission, but its answer is held on the wire (Playwright's WebSocket route)
 * until the admin has answered over REST; the hub then refuses Bo's late answer with
 * `_zcode/answer_refused` and the phone shows why in a toast. Real daemon, simulator child, 390×844.
 */
import type { WebSocketRoute } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { phoneHub } from './support/fixture.js';
import { newSession, pair, sendPrompt, shoot, waitIdle } from './support/flow.js';

const { hub, phone } = phoneHub({ hub: { simArgs: ['--turn-delay-scale', '0.4'] } });

describe('a refused answer on the phone', () => {
  it('Bo’s answer arrives after the admin’s: the phone says it did not count and who answered', async () => {
    const { page, context } = phone;
    let holding = false;
    const held: Array<() => void> = [];
    await context.routeWebSocket(/\/acp/, (ws: WebSocketRoute) => {
      const server = ws.connectToServer();
      ws.onMessage((m) => {
        // The phone's answer to the permission request, held back while `holding`.
        if (holding && typeof m === 'string' && m.includes('"outcome":"selected"')) held.push(() => server.send(m));
        else server.send(m);
      });
      server.onMessage((m) => ws.send(m));
    });
    await pair(phone, hub, 'Bo phone', 'operate', 'bo');
    await newSession(page);
    await sendPrompt(page, 'run the tests, permission needed');
    const sheet = page.getByTestId('interaction-sheet');
    await sheet.getByTestId('option-allow_once').waitFor();
    holding = true;
    await sheet.getByTestId('option-allow_once').click();
    await expect.poll(() => held.length).toBe(1);

    // Meanwhile the admin answers over REST: the request is settled before Bo's answer arrives.
    const inbox = z.object({ interactions: z.array(z.object({ interactionId: z.string() })) });
    const [pending] = inbox.parse(await (await hub.api('/api/interactions')).json()).interactions;
    const res = await hub.api(`/api/interactions/${pending?.interactionId}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ optionId: 'allow_once' }),
    });
    expect(res.status).toBe(200);
    holding = false;
    for (const send of held.splice(0)) send();

    const toast = page.getByTestId('toast').filter({ hasText: 'Your answer was not counted' });
    await toast.waitFor();
    expect(await toast.innerText()).toMatch(/^Your answer was not counted: Interaction already resolved by admin/);
    await shoot(page, 'answer-refused-toast');
    await waitIdle(page);
    expect(phone.errors).toEqual([]);
  });
});
