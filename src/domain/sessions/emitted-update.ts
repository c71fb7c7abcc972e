/**
 * What the hub keeps of each update it emits, beside the journal, for clients that come later:
 * the session's preview (the list's last message), its background tasks' output (also on disk,
 * task-output-files.ts) and its last usage (the context meter a replay ends with; also in the
 * session marks, so it outlives a hub restart).
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { HubConfig } from '../../config/schema.js';
import type { SessionMarks } from './session-marks.js';
import { foldPreview } from './session-preview.js';
import type { SessionState } from './session-state.js';
import type { TaskOutputFiles } from '../prompts/task-output-files.js';

/** The parts of the hub that keep them. */
export interface KeepsEmitted {
  readonly marks: SessionMarks;
  readonly config: HubConfig;
  readonly taskFiles: TaskOutputFiles | undefined;
  /** `_zcode/session_state` to every client (a task that starts or ends changes the list's state). */
  publishSessionState(session: SessionState): void;
}

/** Gives a session the hub just learnt what a previous run kept of it: its tasks' output and its last usage. */
export function restoreKept(hub: KeepsEmitted, session: SessionState): void {
  hub.taskFiles?.restore(session.sessionId, session.taskOutputs);
  const usage = hub.marks.usage(session.sessionId);
  if (usage) session.noteUsage(usage);
}

/** Notes one update the hub just emitted to `session`'s clients. */
export function noteEmitted(hub: KeepsEmitted, session: SessionState, update: SessionUpdate): void {
  session.openTools.note(update);
  const draft = foldPreview(session.previewDraft, update, hub.config.limits.sessionPreviewChars);
  if (draft !== session.previewDraft) {
    session.setPreviewDraft(draft);
    if (draft && draft.text.trim() !== '') hub.marks.notePreview(session.sessionId, draft.role, draft.text);
  }
  // Only a tool call starts, feeds or ends a kept task: the stream's other updates skip the count.
  if (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') {
    const tasksBefore = session.taskOutputs.running();
    if (session.taskOutputs.note(update)) {
      hub.taskFiles?.changed(session.sessionId, session.taskOutputs);
      if (session.taskOutputs.running() !== tasksBefore) hub.publishSessionState(session);
    }
  }
  if (update.sessionUpdate === 'usage_update') {
    session.noteUsage(update);
    hub.marks.noteUsage(session.sessionId, update);
  }
}
