import http from 'node:http';
import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** True when the server switched protocols (101). */
  upgraded: boolean;
}

/**
 * One HTTP request with exactly the headers given (Host included, none added), over a real
 * socket. With `upgrade: true` it asks for a WebSocket and reports whether the server upgraded.
 */
export function rawRequest(
  port: number,
  opts: { method?: string; path: string; headers: Record<string, string>; upgrade?: boolean; body?: string },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.upgrade) {
      Object.assign(headers, {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      });
    }
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: opts.method ?? 'GET',
      path: opts.path,
      headers,
      setHost: false,
      agent: false,
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '', upgraded: true });
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, upgraded: false });
      });
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** Opens a raw TCP connection; resolves with it once connected. */
export function rawConnect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => resolve(socket));
    socket.on('error', reject);
  });
}
