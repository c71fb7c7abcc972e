import { TurnFailure, type TurnContext } from '../turn/turn-context.js';

/** `fail`: starts answering, then the provider fails → `turn.failed` with an ErrorDetail (§5.5.4). */
export async function failScenario(ctx: TurnContext): Promise<void> {
  await ctx.say('Let me look into that');
  await ctx.sleep(100);
  const sel = ctx.rt.info.model;
  const error = { error: { type: 'provider_error', message: 'Simulated provider failure: upstream returned HTTP 500' }, retryable: false };
  ctx.emit('session.updated', error);
  throw new TurnFailure({
    type: 'provider_error',
    message: 'Simulated provider failure: upstream returned HTTP 500',
    code: 'sim_upstream_500',
    retryable: false,
    attribution: {
      source: 'provider',
      reason: 'http_status',
      ...(sel ? { providerId: sel.providerId, modelId: sel.modelId } : {}),
      statusCode: 500,
    },
  });
}
