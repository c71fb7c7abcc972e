/**
 * The app's first script (web/index.html loads it before the others, `async`): on a browser
 * paired here before, it opens the hub's socket and sends `initialize` while the rest of the app
 * downloads (net/early-socket.ts). It imports only what that needs, so it stays a small chunk.
 */
import { initializeParams } from './hub/initialize-params.js';
import { deviceLabel } from './hub/device-name.js';
import { openEarlySocket } from './net/early-socket.js';
import { pairingInAddress, seemsPaired } from './net/paired-flag.js';

if (seemsPaired() && !pairingInAddress(location.hash)) openEarlySocket({ method: 'initialize', params: initializeParams(deviceLabel()) });
