/**
 * A provider save the hub refuses is told field by field, in the form's own words (the settings
 * form's toast), never "400 Request does not match the schema".
 */
import { describe, expect, it } from 'vitest';
import { RestError } from '../../web/src/net/rest.js';
import { refusalText } from '../../web/src/views/provider-refusal.js';

const refused = (issues: unknown, message = 'Request does not match the schema') =>
  new RestError(400, 'HUB_ERR_BAD_REQUEST', message, { error: { code: 'HUB_ERR_BAD_REQUEST', message, details: { issues } } });

describe('a refused provider save, in words', () => {
  it('names each field by its label, with the hub’s reason', () => {
    expect(
      refusalText(
        refused([
          { path: 'body.baseUrl', message: 'baseUrl must be an http:// or https:// URL' },
          { path: 'body.models.0', message: 'Too small: expected string to have >=1 characters' },
        ]),
      ),
    ).toBe(
      'Base URL: baseUrl must be an http:// or https:// URL; Models (one per line): Too small: expected string to have >=1 characters',
    );
  });

  it('a field the form does not show keeps its name; a body-wide issue and a refusal without issues keep the hub’s message', () => {
    expect(refusalText(refused([{ path: 'config.providerConfigRules', message: 'duplicate' }]))).toBe('providerConfigRules: duplicate');
    expect(refusalText(refused([{ path: 'body', message: 'Unrecognized key: "colour"' }]))).toBe('Unrecognized key: "colour"');
    expect(refusalText(new RestError(409, 'HUB_ERR_CONFLICT', 'A provider with id good already exists', {}))).toBe(
      'A provider with id good already exists',
    );
    expect(refusalText(new Error('offline'))).toBe('offline');
  });
});
