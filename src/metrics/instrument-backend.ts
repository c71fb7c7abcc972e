import type { BackendPort } from '../ports/backend-port.js';
import type { MetricsSink } from './hub-metrics.js';

/** Wraps a backend so every forward request's latency and outcome reach the metrics sink. */
export function instrumentBackend(backend: BackendPort, sink: Pick<MetricsSink, 'backendRequestDone'>): BackendPort {
  return {
    status: () => backend.status(),
    async request(method, params, options) {
      const started = performance.now();
      try {
        const result = await backend.request(method, params, options);
        sink.backendRequestDone(method, performance.now() - started, true);
        return result;
      } catch (err) {
        sink.backendRequestDone(method, performance.now() - started, false);
        throw err;
      }
    },
    onNotification: (l) => backend.onNotification(l),
    onStatus: (l) => backend.onStatus(l),
    onSessionResumed: (l) => backend.onSessionResumed(l),
    setInteractionHandler: (h) => backend.setInteractionHandler(h),
    start: () => backend.start(),
    restart: () => backend.restart(),
    close: () => backend.close(),
    stderrTail: () => backend.stderrTail(),
  };
}
