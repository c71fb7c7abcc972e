import { describe, expect, it } from 'vitest';
import { initializeParams, promptParams } from '../../src/gateway/acp-schemas.js';
import { invalidParams } from '../../src/gateway/jsonrpc.js';

/** The -32602 a refused request gets names each field at fault by its path, through ACP's unions. */

function refusal(
  schema: { safeParse(v: unknown): { success: boolean; error?: unknown } },
  params: unknown,
): ReturnType<typeof invalidParams> {
  const r = schema.safeParse(params);
  expect(r.success).toBe(false);
  return invalidParams(r.error as Parameters<typeof invalidParams>[0]);
}

describe('invalid params', () => {
  it('names a missing field inside an optional (T | null) object', () => {
    const err = refusal(initializeParams, { protocolVersion: 1, clientInfo: { name: 'phone' } });
    expect(err.message).toBe('Invalid params: clientInfo.version: required');
    expect(err.data).toMatchObject({ code: 'HUB_ERR_BAD_REQUEST', issues: [{ path: 'clientInfo.version', message: 'required' }] });
  });

  it('names a field of the content block its `type` chose', () => {
    const err = refusal(promptParams, {
      sessionId: 's',
      prompt: [
        { type: 'text', text: 'ok' },
        { type: 'image', data: 'x' },
      ],
    });
    expect(err.data).toMatchObject({ issues: [{ path: 'prompt.1.mimeType', message: 'required' }] });
  });

  it('lists the accepted tags when no branch has the tag given', () => {
    const err = refusal(promptParams, { sessionId: 's', prompt: [{ type: 'video' }] });
    expect(err.message).toBe('Invalid params: prompt.0.type: expected one of "text", "image", "audio", "resource_link", "resource"');
  });

  it('lists the accepted types when the value is none of them', () => {
    const err = refusal(initializeParams, { protocolVersion: 1, clientInfo: 5 });
    expect(err.data).toMatchObject({ issues: [{ path: 'clientInfo', message: 'expected object or null' }] });
  });

  it('counts the further issues in the message', () => {
    const err = refusal(promptParams, { sessionId: 7, prompt: 'x' });
    expect(err.message).toBe('Invalid params: sessionId: expected string, received number (and 1 more)');
  });
});
