/**
 * The app's first script (web/index.html loads it before the others, `async`): on a browser
 * paired here before, it opens the hub's socket and sends the handshake's requests while the rest
 * of the app downloads (net/early-socket.ts): `initialize`, the session list and the load of the
 * chat the address shows, as the app's handshake asks them (HubClient.onOpen). It imports only
 * what that needs, so it stays a small chunk.
 */
import { listParams, loadParams, shownSession } from './hub/handshake-requests.js';
import { initializeParams } from './hub/initialize-params.js';
import { deviceLabel } from './hub/device-name.js';
import { openEarlySocket } from './net/early-socket.js';
import { pairingInAddress, seemsPaired } from './net/paired-flag.js';

if (seemsPaired() && !pairingInAddress(location.hash)) {
  const shown = shownSession(location.pathname + location.search);
  openEarlySocket([
    { method: 'initialize', params: initializeParams(deviceLabel()) },
    { method: 'session/list', params: listParams() },
    ...(shown ? [{ method: 'session/load', params: loadParams(shown, '') }] : []),
  ]);
}
