/**
 * The agent's slash commands of a session, told to its clients as ACP `available_commands_update`
 * (acp/available-commands.ts). State, not history: never journaled (no seq), sent to a client once
 * its attach result is out (it then knows the session) and to every attached client when a
 * snapshot changes the list. A client still replaying gets it when its result is out.
 */
import { availableCommands, availableCommandsUpdate, sameCommands } from '../../acp/available-commands.js';
import type { ClientPort } from '../delivery/client-port.js';
import type { HubCore } from '../hub-core.js';
import type { SessionState } from './session-state.js';

/** Folds a snapshot's `slashCommands` into the session; tells the attached clients when it changed. */
export function foldCommands(core: HubCore, session: SessionState, raw: unknown): void {
  const commands = availableCommands(raw, core.config.limits.availableCommandsMax);
  if (commands === undefined || sameCommands(commands, session.commands)) return;
  session.setCommands(commands);
  for (const a of session.attachments.values()) if (!a.replaying) sendCommands(core, session, a.client);
}

/** The session's commands to one client (nothing when the agent offers none). */
export function sendCommands(core: HubCore, session: SessionState, client: ClientPort): void {
  if (session.commands.length === 0) return;
  const frame = core.broadcaster.serialize('session/update', {
    sessionId: session.sessionId,
    update: availableCommandsUpdate(session.commands),
  });
  core.broadcaster.sendNow(client, frame);
}
