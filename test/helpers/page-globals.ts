import { vi } from 'vitest';
import { WebSocket as WsSocket } from 'ws';

/**
 * What a page has and Node 20 lacks, for the web app's modules under test: the browser's
 * WebSocket, the user agent deviceLabel reads, and the version the build puts into initialize
 * (web/vite.config.ts `define`). Undone by `vi.unstubAllGlobals()`.
 */
export function stubPageGlobals(): void {
  vi.stubGlobal('WebSocket', WsSocket);
  vi.stubGlobal('navigator', { userAgent: 'test' });
  vi.stubGlobal('__APP_VERSION__', '0.0.0-test');
}
