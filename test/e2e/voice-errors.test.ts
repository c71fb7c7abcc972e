/**
 * When dictation stops on its own the phone says why in a sentence, never an engine code: a
 * microphone the browser refused, or none that could record (what Chromium reports with fake
 * media devices and no real capture). Headless Chromium has no speech service, so the page gets a
 * stand-in recognition engine that fails with the code the test names; the app's own mic, the
 * dictation machine and the toast run as shipped.
 */
import { describe, expect, it } from 'vitest';
import { phoneHub } from './support/fixture.js';
import { newSession, pair, shoot } from './support/flow.js';

declare global {
  interface Window {
    failWith: string;
  }
}

const { hub, phone } = phoneHub({ hub: { simArgs: ['--turn-delay-scale', '0.2'] } });

describe('phone web app: voice input that cannot listen', () => {
  it('a refused microphone and a missing one are each told in words', async () => {
    const { page, context } = phone;
    await context.addInitScript(() => {
      window.failWith = 'not-allowed';
      class FailingEngine {
        lang = '';
        continuous = false;
        interimResults = false;
        onstart: (() => void) | null = null;
        onend: (() => void) | null = null;
        onerror: ((e: { error: string }) => void) | null = null;
        onresult: ((e: unknown) => void) | null = null;
        start() {
          setTimeout(() => {
            this.onerror?.({ error: window.failWith });
            this.onend?.();
          }, 20);
        }
        stop() {}
        abort() {}
      }
      for (const name of ['SpeechRecognition', 'webkitSpeechRecognition'])
        Object.defineProperty(window, name, { value: FailingEngine, configurable: true });
    });
    await pair(phone, hub, 'Voice phone');
    await newSession(page);
    const mic = page.getByTestId('voice-button');
    const toasts = page.getByTestId('toast');

    await mic.click();
    const refused = toasts.filter({ hasText: 'refused' });
    await refused.waitFor();
    expect(await refused.innerText()).toBe('Microphone access was refused. Allow it in the browser’s site settings.');
    await expect.poll(() => mic.getAttribute('data-state')).toBe('idle');

    await page.evaluate(() => {
      window.failWith = 'audio-capture';
    });
    await mic.click();
    const missing = toasts.filter({ hasText: 'No microphone' });
    await missing.waitFor();
    expect(await missing.innerText()).toBe('No microphone could record. Check that one is connected and not in use by another app.');
    expect(await page.getByText('audio-capture').count()).toBe(0);
    await shoot(page, 'voice-no-microphone');
  });
});
