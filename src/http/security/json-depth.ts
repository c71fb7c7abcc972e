import type { FastifyInstance } from 'fastify';
import { HubError } from '../../errors.js';
import { depthMessage, exceedsJsonDepth } from '../../json-depth.js';

/**
 * REST bodies nested deeper than `maxDepth` are refused 400 before validation:
 * the zod schemas and every later step recurse over the body.
 */
export function installJsonDepthCheck(app: FastifyInstance, maxDepth: number): void {
  app.addHook('preValidation', async (req) => {
    if (req.body !== undefined && exceedsJsonDepth(req.body, maxDepth)) throw new HubError('HUB_ERR_BAD_REQUEST', depthMessage(maxDepth));
  });
}
