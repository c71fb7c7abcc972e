import { afterEach, describe, expect, it } from 'vitest';
import { RecorderClient, startRig, type DomainRig } from './helpers.js';

let rig: DomainRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

type Presence = { clients: unknown[] };

/** `a` is in a session; ten more clients attach at once. Returns a's presence notes once all eleven show. */
async function tenJoin(presenceCoalesceMs: number): Promise<Presence[]> {
  rig = await startRig({ limits: { presenceCoalesceMs } });
  const a = new RecorderClient({ name: 'a' });
  rig.hub.connect(a);
  const opened = await rig.hub.newSession(a, { cwd: rig.config.workspace });
  const before = a.notes('_zcode/presence').length;
  const team = Array.from({ length: 10 }, (_, i) => new RecorderClient({ name: `t${i}` }));
  for (const c of team) rig.hub.connect(c);
  const r = rig;
  await Promise.all(team.map((c) => r.hub.loadSession(c, opened.sessionId, { history: false })));
  await a.waitFor(() => (a.notes('_zcode/presence') as Presence[]).some((p) => p.clients.length === 11), 'all eleven present');
  return (a.notes('_zcode/presence') as Presence[]).slice(before);
}

describe('attendance notices (presenceCoalesceMs)', () => {
  it('ten clients joining together cost the others one presence notice, listing all of them', async () => {
    const notes = await tenJoin(1_000);
    expect(notes).toHaveLength(1);
    expect(notes[0]?.clients).toHaveLength(11);
  });

  it('with the window at 0 every join is its own notice', async () => {
    const notes = await tenJoin(0);
    expect(notes).toHaveLength(10);
    expect(notes.at(-1)?.clients).toHaveLength(11);
  });
});
