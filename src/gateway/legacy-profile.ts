/**
 * The zcode-acp-remote compatibility profile (HUB-DESIGN §5.1). That app lists "instances"
 * (bridges) and connects to one with `/acp?instance=<id>&token=<t>`; this daemon is the single
 * instance, under a fixed id so the app's saved connection survives hub restarts.
 */
export const LEGACY_INSTANCE_ID = 'zcode-hub';

/** The wire profile a connection gets from its query: `instance=` selects `legacy`. */
export function profileFor(instance: string | undefined): 'acp' | 'legacy' {
  return instance === undefined ? 'acp' : 'legacy';
}
