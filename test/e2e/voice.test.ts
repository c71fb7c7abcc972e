/**
 * Voice input and read-aloud on a 390×844 phone. Headless Chromium has no speech service to talk
 * to, so the phone's page gets a stand-in for the browser's recognition engine (it "hears" one
 * sentence) and its speech synthesis is watched rather than heard; the app's own code — the mic,
 * the dictation machine, the prompt, the answer and its read-aloud button — runs as shipped. A
 * second device whose browser has neither engine shows neither button.
 */
import { describe, expect, it } from 'vitest';
import { phoneHub } from './support/fixture.js';
import { newSession, pair, sendPrompt, shoot, waitIdle } from './support/flow.js';

declare global {
  interface Window {
    heardLangs: string[];
    spoken: Array<{ text: string; lang: string }>;
  }
}

const { hub, phone, laptop } = phoneHub({ hub: { simArgs: ['--turn-delay-scale', '0.2'] }, laptop: true });

async function openNewChat(page: typeof phone.page) {
  await newSession(page);
}

describe('phone web app: voice input and read aloud', () => {
  it('dictates into the prompt in the app’s language and reads the finished answer aloud', async () => {
    const { page, context } = phone;
    await context.addInitScript(() => {
      window.heardLangs = [];
      window.spoken = [];
      class HeardOneSentence {
        lang = '';
        continuous = false;
        interimResults = false;
        onstart: (() => void) | null = null;
        onend: (() => void) | null = null;
        onerror: ((e: { error: string }) => void) | null = null;
        onresult: ((e: unknown) => void) | null = null;
        #ended = false;
        start() {
          window.heardLangs.push(this.lang);
          setTimeout(() => {
            this.onstart?.();
            this.onresult?.({ resultIndex: 0, results: [{ isFinal: false, 0: { transcript: 'tell me' } }] });
            this.onresult?.({ resultIndex: 0, results: [{ isFinal: true, 0: { transcript: 'tell me about the project' } }] });
          }, 50);
        }
        stop() {
          this.#end();
        }
        abort() {
          this.#end();
        }
        #end() {
          if (this.#ended) return;
          this.#ended = true;
          setTimeout(() => this.onend?.(), 10);
        }
      }
      for (const name of ['SpeechRecognition', 'webkitSpeechRecognition'])
        Object.defineProperty(window, name, { value: HeardOneSentence, configurable: true });
      const synth = window.speechSynthesis;
      synth.speak = (u: SpeechSynthesisUtterance) => {
        window.spoken.push({ text: u.text, lang: u.lang });
      };
      synth.cancel = () => undefined;
    });
    await pair(phone, hub, 'Voice phone');
    await openNewChat(page);

    const mic = page.getByTestId('voice-button');
    expect(await mic.getAttribute('aria-label')).toBe('Voice input');
    await page.getByTestId('prompt-input').fill('please');
    await mic.click();
    await expect.poll(() => page.getByTestId('prompt-input').inputValue()).toBe('please tell me about the project');
    expect(await mic.getAttribute('aria-pressed')).toBe('true');
    expect(await mic.getAttribute('aria-label')).toBe('Stop voice input');
    await shoot(page, 'voice-listening');
    await mic.click();
    await expect.poll(() => mic.getAttribute('data-state')).toBe('idle');
    expect(await page.getByTestId('dictation').count()).toBe(0);
    expect(await page.evaluate(() => window.heardLangs)).toEqual(['en-US']);

    await page.getByTestId('send-button').click();
    await waitIdle(page);
    const answer = page.getByTestId('agent-message').last();
    const read = page.getByTestId('read-aloud').last();
    await read.waitFor();
    // The answer's own text stays the answer's: the button sits beside it.
    expect(await answer.textContent()).not.toContain('Read aloud');
    await read.click();
    expect(await read.textContent()).toBe('Stop reading');
    await shoot(page, 'read-aloud');
    const [said] = await page.evaluate(() => window.spoken);
    expect(said?.lang).toBe('en-US');
    expect(said?.text.trim()).toBe((await answer.innerText()).trim());
    expect(said?.text.length).toBeGreaterThan(10);
    await read.click();
    expect(await read.textContent()).toBe('Read aloud');

    // The app switched to Chinese (the reload starts the page's records afresh): both engines get Chinese.
    await page.evaluate(() => localStorage.setItem('zcode-hub.locale', 'zh-CN'));
    await page.reload();
    await page.getByTestId('voice-button').click();
    await expect.poll(() => page.evaluate(() => window.heardLangs)).toEqual(['zh-CN']);
    // Dictation done and stopped before the answer's button is pressed: its text arriving grows the
    // composer and moves the conversation, and a press meant for "Read aloud" could land beside it.
    await expect.poll(() => page.getByTestId('prompt-input').inputValue()).toBe('tell me about the project');
    await page.getByTestId('voice-button').click();
    await expect.poll(() => page.getByTestId('voice-button').getAttribute('data-state')).toBe('idle');
    await page.getByTestId('dictation').waitFor({ state: 'detached' });
    await page.getByTestId('read-aloud').last().click();
    await expect.poll(() => page.evaluate(() => window.spoken.map((s) => s.lang))).toEqual(['zh-CN']);
    expect(phone.errors).toEqual([]);
  });

  it('a browser without speech engines shows neither button', async () => {
    const { page, context } = laptop;
    await context.addInitScript(() => {
      for (const name of ['SpeechRecognition', 'webkitSpeechRecognition', 'speechSynthesis', 'SpeechSynthesisUtterance'])
        Object.defineProperty(window, name, { value: undefined, configurable: true });
    });
    await pair(laptop, hub, 'Quiet laptop');
    await openNewChat(page);
    await sendPrompt(page, 'hello there');
    await waitIdle(page);
    await page.getByTestId('agent-message').last().waitFor();
    expect(await page.getByTestId('voice-button').count()).toBe(0);
    expect(await page.getByTestId('read-aloud').count()).toBe(0);
    expect(laptop.errors).toEqual([]);
  });
});
