/**
 * The composition root's domain half: the hub's own stateful parts built from the config, once
 * (ARCHITECTURE.md §2). `startDaemon` builds them; a test rig that builds a hub without a daemon
 * builds them here too, so it wires what a daemon wires.
 */
import type { HubConfig } from '../config/schema.js';
import { SessionMarks } from '../domain/sessions/session-marks.js';

/** Archive flags and last-message previews, kept in the state dir. */
export function sessionMarks(config: HubConfig): SessionMarks {
  return new SessionMarks(config.stateDir, { max: config.limits.sessionMarksMax, previewChars: config.limits.sessionPreviewChars });
}
