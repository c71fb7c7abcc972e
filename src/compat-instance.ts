/**
 * The id under which the zcode-acp-remote app knows this daemon (ARCHITECTURE.md §5.1). That app lists
 * "instances" (bridges) and connects with `/acp?instance=<id>`; this daemon is the single
 * instance, under a fixed id so the app's saved connection survives hub restarts. Shared by the
 * gateway (the WebSocket query) and the REST compat routes, which never import each other.
 */
export const LEGACY_INSTANCE_ID = 'zcode-hub';
