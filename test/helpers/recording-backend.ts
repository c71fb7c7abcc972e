import type { BackendPort } from '../../src/ports/backend-port.js';

/**
 * The real backend link, telling `onRequest` of every request before passing it on: a wrapper
 * that records, not a fake — every call goes through to the link and its child.
 */
export function recordingBackend(link: BackendPort, onRequest: (method: string, params: unknown) => void): BackendPort {
  return {
    status: () => link.status(),
    request: (method, params, options) => {
      onRequest(method, params);
      return link.request(method, params, options);
    },
    onNotification: (l) => link.onNotification(l),
    onStatus: (l) => link.onStatus(l),
    onSessionResumed: (l) => link.onSessionResumed(l),
    setInteractionHandler: (h) => link.setInteractionHandler(h),
    start: () => link.start(),
    restart: () => link.restart(),
    close: () => link.close(),
    stderrTail: () => link.stderrTail(),
  };
}
