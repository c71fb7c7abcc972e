import { describe, expect, it } from 'vitest';
import { SimClient } from './sim-client.js';

// Fault switches the hub's CHD-* tests rely on (README "Fault switches").
describe('fault switches', () => {
  it('--exit-immediately exits with code 1 before reading anything', async () => {
    const sim = await SimClient.start({ args: ['--exit-immediately'], noProbe: true });
    expect(await sim.waitExit()).toBe(1);
    await sim.close();
  });

  it('ZCODE_SIM_CRASH_AFTER_EVENTS exits 1 after N session events', async () => {
    const sim = await SimClient.start({ env: { ZCODE_SIM_CRASH_AFTER_EVENTS: '5' } });
    const sessionId = await sim.openSession();
    await sim.call('session/send', { sessionId, content: 'hello' });
    expect(await sim.waitExit()).toBe(1);
    expect(sim.events(sessionId).length).toBe(5);
    await sim.close();
  });

  it('--ignore-sigterm survives SIGTERM; stdin EOF still stops it', async () => {
    const sim = await SimClient.start({ args: ['--ignore-sigterm'] });
    sim.signal('SIGTERM');
    await expect.poll(() => sim.stderr, { timeout: 10_000 }).toMatch(/SIGTERM ignored/);
    expect((await sim.request('runtime/capabilities', {})).result).toEqual({ independentPlanState: true });
    await sim.close();
    expect(sim.exitCode).toBe(0);
  });

  it('--flood-stderr writes stderr continuously', async () => {
    const sim = await SimClient.start({ args: ['--flood-stderr'] });
    await expect.poll(() => (sim.stderr.match(/\[zcode-sim flood\]/g) ?? []).length, { timeout: 10_000 }).toBeGreaterThan(500);
    await sim.close();
  });

  it('--junk-lines interleaves non-JSON, invalid UTF-8, non-envelope JSON and a 5,000-deep event; the protocol still works', async () => {
    const sim = await SimClient.start({ args: ['--junk-lines'] });
    const sessionId = await sim.openSession();
    await sim.prompt(sessionId, 'hello');
    expect(sim.rawLines).toContain('this line is not JSON');
    expect(sim.rawLines).toContain('{"hello":"not an envelope"}');
    expect(sim.rawLines.some((l) => l.includes('\uFFFD'))).toBe(true);
    expect(sim.rawLines.some((l) => l.startsWith('{"method":"session/event"') && l.includes(`${'['.repeat(5_000)}]`))).toBe(true);
    await sim.close();
  });

  it('--oversize-line writes one huge line without a newline on the first request after the probe', async () => {
    const sim = await SimClient.start({ args: ['--oversize-line', '2000000'], noProbe: true });
    sim.send({ id: 1, method: 'session/list' });
    // the response is glued to the end of the huge line, which is the first newline on stdout
    await expect.poll(() => sim.rawLines.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(sim.rawLines[0]!.length).toBeGreaterThan(2_000_000);
    expect(sim.rawLines[0]!.startsWith('{"oversize":"xxxx')).toBe(true);
    await sim.close();
  });

  it('--stop-reading-stdin answers the first request, then stdin backs up', async () => {
    const sim = await SimClient.start({ args: ['--stop-reading-stdin'] });
    const big = `${JSON.stringify({ method: 'process/networkCapture', params: { pad: 'x'.repeat(1024 * 1024) } })}\n`;
    for (let i = 0; i < 4; i++) sim.sendRaw(big);
    await expect.poll(() => sim.child.stdin!.writableNeedDrain, { timeout: 10_000 }).toBe(true);
    sim.child.kill('SIGKILL');
    await sim.close();
  });

  it('--stop-reading-stdin alone keeps the process alive with stdin backed up; SIGTERM still ends it', async () => {
    const sim = await SimClient.start({ args: ['--stop-reading-stdin'] });
    // Past the stream's high-water mark the paused pipe stops holding the event loop (it used to exit 13).
    const big = `${JSON.stringify({ method: 'process/networkCapture', params: { pad: 'x'.repeat(1024 * 1024) } })}\n`;
    for (let i = 0; i < 4; i++) sim.sendRaw(big);
    await expect.poll(() => sim.child.stdin!.writableNeedDrain, { timeout: 10_000 }).toBe(true);
    const outcome = await sim.waitExit(2_000).then(
      (code) => `exited ${code}`,
      () => 'alive',
    );
    expect(outcome).toBe('alive');
    expect(sim.exitCode).toBeUndefined();
    sim.signal('SIGTERM');
    await sim.waitExit(10_000);
    expect(sim.child.signalCode).toBe('SIGTERM');
    await sim.close();
  });

  it('--slow-ms delays every response; --never-answer drops one method', async () => {
    const sim = await SimClient.start({ args: ['--slow-ms', '150', '--never-answer', 'session/list'] });
    const t0 = Date.now();
    sim.send({ id: 'never', method: 'session/list', params: {} });
    expect((await sim.request('runtime/capabilities', {})).result).toEqual({ independentPlanState: true });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    expect(sim.messages.some((m) => m.id === 'never')).toBe(false);
    await sim.close();
  });

  it('--ignore-stop: session/stop and v4 stop succeed, yet the turn keeps streaming with no terminal event', async () => {
    const sim = await SimClient.start({ args: ['--ignore-stop', '--scenario', 'slow'] });
    const sessionId = await sim.openSession();
    const from = sim.messages.length;
    await sim.call('session/send', { sessionId, content: 'go' });
    const isDelta = (m: any) => m.method === 'session/event' && m.params.sessionId === sessionId && m.params.payload?.kind === 'text_delta';
    await sim.waitFor(isDelta, 20_000, 'a delta', from);
    expect(await sim.call('session/stop', { sessionId })).toEqual({});
    expect(
      await sim.call('v4/command', { commandId: 'stop-1', clientId: 't', sessionId, type: 'stop', payload: {}, issuedAt: Date.now() }),
    ).toMatchObject({ status: 'accepted' });
    const afterStop = sim.messages.length;
    // Still streaming after both stops were answered…
    for (let i = 0; i < 3; i++) await sim.waitFor(isDelta, 20_000, 'a delta after the stops', sim.messages.length);
    // …and nothing ended the turn in between.
    const ended = sim.messages
      .slice(from)
      .filter(
        (m) =>
          m.method === 'session/event' &&
          m.params.sessionId === sessionId &&
          (m.params.type === 'turn.completed' || m.params.type === 'turn.failed'),
      );
    expect(ended).toEqual([]);
    expect(sim.messages.length).toBeGreaterThan(afterStop);
    expect(sim.stderr).toMatch(/fault --ignore-stop/);
    await sim.close();
  });

  it('--late-stop: the stopped turn runs on until the next send, which ends it (cancelled, lock released, prompt_completed) before its own prompt_started and ACK', async () => {
    const sim = await SimClient.start({ args: ['--late-stop', '--scenario', 'slow'] });
    const sessionId = await sim.openSession();
    const from = sim.messages.length;
    await sim.call('session/send', { sessionId, content: 'go' });
    const isDelta = (m: any) => m.method === 'session/event' && m.params.sessionId === sessionId && m.params.payload?.kind === 'text_delta';
    await sim.waitFor(isDelta, 20_000, 'a delta', from);
    expect(
      await sim.call('v4/command', { commandId: 'stop-1', clientId: 't', sessionId, type: 'stop', payload: {}, issuedAt: Date.now() }),
    ).toMatchObject({ status: 'accepted' });
    await sim.waitFor(isDelta, 20_000, 'a delta after the stop', sim.messages.length);
    const beforeNext = sim.messages.length;
    const ack = await sim.request('session/send', { sessionId, content: 'next' }, 'next-send');
    expect(ack.result).toMatchObject({ accepted: true });
    const kinds = sim.messages
      .slice(beforeNext)
      .map((m: any) => {
        if (m.id === 'next-send') return 'ack';
        if (m.method === 'session/event' && m.params.type === 'turn.completed') return `turn.completed:${m.params.payload.resultType}`;
        if (m.method === 'state.updated') return m.params.reason;
        return undefined;
      })
      .filter((k) => k !== undefined);
    expect(kinds).toEqual(['turn.completed:cancelled', 'prompt_completed', 'prompt_started', 'ack']);
    expect(sim.stderr).toMatch(/fault --late-stop/);
    await sim.close();
  });

  it('--fail-method METHOD=MESSAGE: that method answers -32603 with the message verbatim; the others still work', async () => {
    const message = '401 Unauthorized: invalid key sk-test';
    const sim = await SimClient.start({ args: ['--fail-method', `provider/testModelConnectivity=${message}`] });
    const workspace = { workspacePath: sim.home, workspaceKey: sim.home };
    const r = await sim.request('provider/testModelConnectivity', { workspace, selection: { providerId: 'sim', modelId: 'sim-fast' } });
    expect(r.error).toEqual({ code: -32603, message });
    expect(await sim.call('runtime/capabilities', {})).toBeTruthy();
    await sim.close();
  });

  it('--fail-command TYPE=REASON_CODE: the next commands of TYPE are refused once per flag, in order; then they run', async () => {
    const code = 'fault.command.workflowRunResumeRejected.';
    const sim = await SimClient.start({
      args: ['--fail-command', `resumeWorkflowRun=${code}superseded`, '--fail-command', `resumeWorkflowRun=${code}compile_failed`],
    });
    const sessionId = await sim.openSession();
    const resume = (commandId: string) =>
      sim.call('v4/command', {
        commandId,
        clientId: 'test',
        sessionId,
        type: 'resumeWorkflowRun',
        payload: { workId: 'wfrun_x' },
        issuedAt: 1,
      });
    expect(
      await sim.call('v4/command', { commandId: 'r0', clientId: 'test', sessionId, type: 'stop', payload: {}, issuedAt: 1 }),
    ).toMatchObject({
      status: 'accepted',
    });
    expect(await resume('r1')).toMatchObject({
      status: 'failed',
      reasonCode: `${code}superseded`,
      message: expect.stringContaining('--fail-command'),
    });
    expect(await resume('r2')).toMatchObject({ status: 'failed', reasonCode: `${code}compile_failed` });
    // The flags are spent: the simulator's own answer for an unknown run.
    expect(await resume('r3')).toMatchObject({ status: 'failed', reasonCode: `${code}not_found` });
    await sim.close();
  });

  it('--event-rate/--event-bytes/--event-duration-ms stream uncoalesced deltas stamped with simSentAt', async () => {
    const sim = await SimClient.start({ args: ['--event-rate', '200', '--event-bytes', '300', '--event-duration-ms', '600'] });
    const sessionId = await sim.openSession();
    await sim.prompt(sessionId, 'go');
    const deltas = sim.events(sessionId, 'model.streaming').filter((e) => e.payload.kind === 'text_delta');
    expect(deltas.length).toBeGreaterThan(50);
    for (const d of deltas) {
      expect(d.payload.delta).toMatch(/^\[simSentAt=\d+\.\d{3}\] x+$/);
      expect(d.payload.delta.length).toBe(300);
      expect(typeof d.payload.simSentAt).toBe('number');
    }
    await sim.close();
  });

  it('a bench prompt may override the stream: rate=N bytes=B ms=D (bad values are ignored)', async () => {
    const sim = await SimClient.start({ args: ['--event-rate', '50', '--event-bytes', '300', '--event-duration-ms', '600'] });
    const sessionId = await sim.openSession();
    await sim.prompt(sessionId, 'bench rate=1000 bytes=120 ms=400');
    const deltas = sim.events(sessionId, 'model.streaming').filter((e) => e.payload.kind === 'text_delta');
    // 1,000/s for 0.4 s; the flag's 50/s for 0.6 s would be 30.
    expect(deltas.length).toBeGreaterThan(150);
    for (const d of deltas) expect(d.payload.delta.length).toBe(120);
    await sim.prompt(sessionId, 'bench rate=0 bytes=x ms=99999999999');
    const all = sim.events(sessionId, 'model.streaming').filter((e) => e.payload.kind === 'text_delta');
    const second = all.slice(deltas.length);
    expect(second.length).toBeGreaterThan(10);
    expect(second.length).toBeLessThan(60);
    for (const d of second) expect(d.payload.delta.length).toBe(300);
    await sim.close();
  });
});
