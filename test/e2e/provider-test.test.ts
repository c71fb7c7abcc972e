/**
 * A provider's "Test" on the phone: it asks the hub about one of the
 * provider's models (at a reasoning level where the model has levels) and shows the real
 * answer, good or bad — it used to send `{}` and fail on every provider.
 */
import { describe, expect, it } from 'vitest';
import { until } from '../helpers/until.js';
import { phoneHub } from './support/fixture.js';
import { pair, shoot } from './support/flow.js';

const { hub, phone } = phoneHub({
  setup: async () => {
    await pair(phone, hub, 'Settings phone', 'admin');
  },
});

describe('phone web app: provider test', () => {
  it('tests a provider’s model and shows the answer, success or failure', async () => {
    const { page } = phone;
    const created = await hub.api('/api/settings/providers', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        providerId: 'acme',
        apiType: 'anthropic-messages',
        baseUrl: 'https://api.acme.example/anthropic',
        models: ['acme-small', 'GLM-5.3'],
        apiKey: 'sk-e2e-acme-0000',
      }),
    });
    expect(created.status).toBe(201);
    // The agent picks the provider file up by polling: wait until its models are offered.
    await until(async () => {
      const list = (await (await hub.api('/api/settings/models')).json()) as { models: Array<{ ref: { providerId: string } }> };
      return list.models.some((m) => m.ref.providerId === 'acme') || undefined;
    }, 'the acme models in the catalog');

    await page.goto(`${hub.url}/settings/providers`);
    const card = page.getByTestId('provider').filter({ hasText: 'acme' });
    await card.getByTestId('provider-test-open').click();
    const panel = card.getByTestId('provider-test');
    expect(await panel.getByTestId('test-model').locator('option').allTextContents()).toEqual(['acme-small', 'GLM-5.3']);
    await panel.getByTestId('test-model').selectOption('GLM-5.3');
    await panel.getByTestId('test-run').click();
    await expect.poll(() => panel.getByTestId('test-result').textContent()).toBe('Connection works');
    await shoot(page, 'provider-test');

    // A disabled provider is not in the agent's registry: the test says so instead of "works".
    await card.getByRole('checkbox').uncheck();
    await until(async () => {
      const list = (await (await hub.api('/api/settings/models')).json()) as { models: Array<{ ref: { providerId: string } }> };
      return list.models.some((m) => m.ref.providerId === 'acme') ? undefined : true;
    }, 'the acme models gone from the catalog');
    await panel.getByTestId('test-run').click();
    await expect.poll(() => panel.getByTestId('test-result').textContent()).toMatch(/^Test failed: .*acme/);
    expect(phone.errors).toEqual([]);
  });
});
