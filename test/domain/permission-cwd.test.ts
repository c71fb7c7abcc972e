import { afterEach, describe, expect, it } from 'vitest';
import { RecorderClient, startRig, type DomainRig } from './helpers.js';

let rig: DomainRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('Hub over the real simulator: what a permission shows', () => {
  it('a shell command’s permission names the session’s directory as its cwd', async () => {
    rig = await startRig();
    const a = new RecorderClient();
    const { sessionId } = await rig.hub.newSession(a, { cwd: rig.config.workspace });
    const turn = rig.hub.prompt(a, sessionId, [{ type: 'text', text: 'permission please' }]);
    await a.waitFor(() => a.openRequests('session/request_permission').length > 0, 'permission request');
    const req = a.openRequests('session/request_permission')[0];
    expect(req?.params).toMatchObject({
      toolCall: { kind: 'execute', rawInput: { command: 'npm test' }, _meta: { zcode: { cwd: rig.config.workspace } } },
    });
    req?.reply({ outcome: { outcome: 'selected', optionId: 'deny' } });
    await turn;
  });
});
