/**
 * Voice input and read-aloud, on the browser's own speech engines (Web Speech API), used only
 * where the browser offers them: `recognitionConstructor()` / `synthesis()` answer undefined
 * elsewhere and the buttons stay hidden. Dictation is one small state machine
 * (`dictationStep`, unit-tested); `Dictation` runs it over one recognition object.
 */
import type { Locale } from '../locale.js';

/** The part of a SpeechRecognition this app uses (the DOM lib has no type for it). */
export interface RecognitionLike {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  start(): void;
  stop(): void;
  abort(): void;
  onstart: (() => void) | null;
  onend: (() => void) | null;
  onerror: ((e: { error: string }) => void) | null;
  onresult: ((e: RecognitionResultEvent) => void) | null;
}

/** What a `result` event carries: the results from `resultIndex` on are new or changed. */
export interface RecognitionResultEvent {
  resultIndex: number;
  results: ArrayLike<{ isFinal: boolean; 0: { transcript: string } }>;
}

type RecognitionConstructor = new () => RecognitionLike;

/** The browser's recognition class (standard or `webkit`-prefixed), or undefined where there is none. */
export function recognitionConstructor(win: object = globalThis): RecognitionConstructor | undefined {
  const w = win as { SpeechRecognition?: RecognitionConstructor; webkitSpeechRecognition?: RecognitionConstructor };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition;
}

/** The browser's speech synthesis, or undefined where there is none. */
export function synthesis(win: object = globalThis): SpeechSynthesis | undefined {
  const w = win as { speechSynthesis?: SpeechSynthesis; SpeechSynthesisUtterance?: unknown };
  return w.speechSynthesis && w.SpeechSynthesisUtterance ? w.speechSynthesis : undefined;
}

/** The BCP 47 tag both engines get for the app's language. */
export function speechLang(locale: Locale): string {
  return locale === 'zh-CN' ? 'zh-CN' : 'en-US';
}

/** Appends dictated words to what is already typed, with one space between (none for Chinese text). */
export function appendDictated(typed: string, dictated: string): string {
  const words = dictated.trim();
  if (!words) return typed;
  if (!typed) return words;
  const joinTight = /[\u3000-\u9fff\uff00-\uffef]$/.test(typed) || /^[\u3000-\u9fff\uff00-\uffef]/.test(words);
  return /\s$/.test(typed) || joinTight ? `${typed}${words}` : `${typed} ${words}`;
}

export type DictationState = 'idle' | 'starting' | 'listening' | 'stopping';
/** `toggle` is the mic button; the others are the recognition object's own events. */
export type DictationEvent = 'toggle' | 'started' | 'ended' | 'failed';
/** What the machine asks the recognition object to do on a transition. */
export type DictationAction = 'start' | 'stop' | 'abort' | undefined;

/** One step of the dictation machine: the next state and what to tell the engine. */
export function dictationStep(state: DictationState, event: DictationEvent): { state: DictationState; action: DictationAction } {
  switch (event) {
    case 'ended':
    case 'failed':
      // The engine is done whatever we were doing (it always ends after an error).
      return { state: 'idle', action: undefined };
    case 'started':
      return state === 'starting' ? { state: 'listening', action: undefined } : { state, action: undefined };
    case 'toggle':
      if (state === 'idle') return { state: 'starting', action: 'start' };
      if (state === 'starting') return { state: 'stopping', action: 'abort' };
      if (state === 'listening') return { state: 'stopping', action: 'stop' };
      return { state, action: undefined };
  }
}

/** Errors a person is told about; `no-speech` and `aborted` are ordinary endings. */
export type DictationError = 'not-allowed' | 'network' | 'no-microphone' | 'other';

/** The engine's error code as one a person is told in words (`audio-capture`: no microphone could record). */
function dictationError(code: string): DictationError {
  if (code === 'not-allowed' || code === 'service-not-allowed') return 'not-allowed';
  if (code === 'network') return 'network';
  return code === 'audio-capture' ? 'no-microphone' : 'other';
}

export interface DictationCallbacks {
  onState(state: DictationState): void;
  /** Finished words, to append to the prompt. */
  onFinal(text: string): void;
  /** Words still being recognised (replaced by the next call; '' clears). */
  onInterim(text: string): void;
  onError(error: DictationError, code: string): void;
}

/** One dictation run per toggle, over a fresh recognition object each time. */
export class Dictation {
  #state: DictationState = 'idle';
  #engine: RecognitionLike | undefined;

  constructor(
    private readonly Ctor: RecognitionConstructor,
    private readonly cb: DictationCallbacks,
  ) {}

  get state(): DictationState {
    return this.#state;
  }

  /** The mic button: starts listening in `lang`, or stops. */
  toggle(lang: string): void {
    if (this.#state === 'idle') this.#engine = this.#fresh(lang);
    this.#apply('toggle');
  }

  /** Leaving the screen: stop without waiting for more words. */
  dispose(): void {
    if (this.#state !== 'idle') this.#engine?.abort();
    this.#state = 'idle';
  }

  #fresh(lang: string): RecognitionLike {
    const r = new this.Ctor();
    r.lang = lang;
    r.continuous = true;
    r.interimResults = true;
    r.onstart = () => this.#apply('started', r);
    r.onend = () => {
      this.cb.onInterim('');
      this.#apply('ended', r);
    };
    r.onerror = (e) => {
      if (r !== this.#engine) return;
      if (e.error !== 'no-speech' && e.error !== 'aborted') this.cb.onError(dictationError(e.error), e.error);
      this.#apply('failed', r);
    };
    r.onresult = (e) => {
      if (r !== this.#engine) return;
      let interim = '';
      for (let i = e.resultIndex; i < e.results.length; i++) {
        const res = e.results[i]!;
        if (res.isFinal) this.cb.onFinal(res[0].transcript);
        else interim += res[0].transcript;
      }
      this.cb.onInterim(interim);
    };
    return r;
  }

  #apply(event: DictationEvent, from?: RecognitionLike): void {
    // Events of an engine this object has already left behind change nothing.
    if (from && from !== this.#engine) return;
    const next = dictationStep(this.#state, event);
    const engine = this.#engine;
    this.#state = next.state;
    if (next.action === 'start') {
      try {
        engine?.start();
      } catch (err) {
        this.#state = 'idle';
        this.cb.onError('other', err instanceof Error ? err.name : String(err));
      }
    } else if (next.action === 'stop') engine?.stop();
    else if (next.action === 'abort') engine?.abort();
    this.cb.onState(this.#state);
  }
}
