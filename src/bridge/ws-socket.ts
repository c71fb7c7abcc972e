import WebSocket from 'ws';
import type { BridgeSocket } from './acp-bridge.js';

/**
 * Opens `/acp` on the daemon with a bearer token and adapts it to the bridge's socket shape.
 * `signal` abandons an opening that has not finished (the editor went away).
 */
export function openBridgeSocket(url: string, token: string, maxPayload: number, signal?: AbortSignal): Promise<BridgeSocket> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const wsUrl = new URL('/acp', url);
    wsUrl.protocol = wsUrl.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(wsUrl, { headers: { authorization: `Bearer ${token}` }, maxPayload });
    const onAbort = (): void => {
      ws.terminate();
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const onError = (err: Error) => {
      signal?.removeEventListener('abort', onAbort);
      reject(err);
    };
    ws.once('error', onError);
    ws.once('open', () => {
      signal?.removeEventListener('abort', onAbort);
      ws.off('error', onError);
      // Errors after open surface as a close, which the bridge turns into a reconnect.
      ws.on('error', () => undefined);
      resolve({
        send: (text) => {
          if (ws.readyState === WebSocket.OPEN) ws.send(text);
        },
        close: () => ws.close(1000),
        onMessage: (listener) =>
          ws.on('message', (data, isBinary) => {
            if (!isBinary) listener(data.toString('utf8'));
          }),
        onClose: (listener) => ws.on('close', (code) => listener(code)),
      });
    });
  });
}
