/**
 * The phone layout at 390×844: the config bar shows three pickers and the context meter without
 * clipping any of them.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PHONE } from './support/browser.js';
import { phoneHub } from './support/fixture.js';
import { pair, sendPrompt, shoot, waitIdle } from './support/flow.js';

const { hub, phone } = phoneHub({ hub: { simArgs: ['--turn-delay-scale', '0.3'] } });

/** Each element of `selector` inside the screen, and each select wide enough for its chosen text. */
async function nothingClipped(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((els, width) => {
    const out: string[] = [];
    for (const el of els as HTMLElement[]) {
      const r = el.getBoundingClientRect();
      const name = el.getAttribute('data-testid') ?? el.className;
      if (r.left < 0 || r.right > width) out.push(`${name} is outside the screen (${Math.round(r.left)}–${Math.round(r.right)})`);
      if (el instanceof HTMLSelectElement) {
        // The chosen option's text, in the select's font, plus its padding and the arrow.
        const probe = document.createElement('span');
        const cs = getComputedStyle(el);
        probe.style.cssText = `position:absolute;visibility:hidden;white-space:nowrap;font:${cs.font};letter-spacing:${cs.letterSpacing}`;
        probe.textContent = el.selectedOptions[0]?.textContent ?? '';
        document.body.append(probe);
        const need = probe.getBoundingClientRect().width + Number.parseFloat(cs.paddingLeft) + 18;
        probe.remove();
        if (el.clientWidth < need) out.push(`${name} cuts “${probe.textContent}” (${el.clientWidth} < ${Math.ceil(need)})`);
      }
    }
    return out;
  }, PHONE.width);
}

describe('phone layout at 390 px', () => {
  it('the config bar shows model, mode, thinking level and the context meter without clipping any', async () => {
    const { page } = phone;
    await pair(phone, hub, 'Layout phone');
    await page.getByTestId('new-session').click();
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('prompt-input').waitFor();
    await page.getByTestId('picker-model').selectOption({ label: 'Sim Pro' });
    await page.getByTestId('picker-thought_level').selectOption('medium');
    await sendPrompt(page, 'hello there');
    await waitIdle(page);
    await page.getByTestId('context-meter').waitFor();
    expect(await page.locator('.config-bar select').count()).toBe(3);
    expect(await page.locator('.config-bar').evaluate((bar) => bar.scrollWidth <= bar.clientWidth)).toBe(true);
    expect(await nothingClipped(page, '.config-bar select, .config-bar [data-testid=context-meter]')).toEqual([]);
    await shoot(page, 'config-bar-three');
  });
});
