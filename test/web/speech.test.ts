import { describe, expect, it } from 'vitest';
import {
  appendDictated,
  Dictation,
  type DictationEvent,
  type DictationState,
  dictationStep,
  type RecognitionLike,
  type RecognitionResultEvent,
  recognitionConstructor,
  speechLang,
  synthesis,
} from '../../web/src/media/speech.js';

const STATES: DictationState[] = ['idle', 'starting', 'listening', 'stopping'];
const EVENTS: DictationEvent[] = ['toggle', 'started', 'ended', 'failed'];

describe('dictation machine', () => {
  it('has one answer for every event in every state', () => {
    const table = Object.fromEntries(STATES.map((s) => [s, Object.fromEntries(EVENTS.map((e) => [e, dictationStep(s, e)]))]));
    expect(table).toEqual({
      idle: {
        toggle: { state: 'starting', action: 'start' },
        started: { state: 'idle', action: undefined },
        ended: { state: 'idle', action: undefined },
        failed: { state: 'idle', action: undefined },
      },
      starting: {
        toggle: { state: 'stopping', action: 'abort' },
        started: { state: 'listening', action: undefined },
        ended: { state: 'idle', action: undefined },
        failed: { state: 'idle', action: undefined },
      },
      listening: {
        toggle: { state: 'stopping', action: 'stop' },
        started: { state: 'listening', action: undefined },
        ended: { state: 'idle', action: undefined },
        failed: { state: 'idle', action: undefined },
      },
      stopping: {
        toggle: { state: 'stopping', action: undefined },
        started: { state: 'stopping', action: undefined },
        ended: { state: 'idle', action: undefined },
        failed: { state: 'idle', action: undefined },
      },
    });
  });
});

/** The browser's engine as the Web Speech API defines it, driven by hand here. */
class Engine implements RecognitionLike {
  static made: Engine[] = [];
  lang = '';
  continuous = false;
  interimResults = false;
  calls: string[] = [];
  onstart: (() => void) | null = null;
  onend: (() => void) | null = null;
  onerror: ((e: { error: string }) => void) | null = null;
  onresult: ((e: RecognitionResultEvent) => void) | null = null;
  constructor() {
    Engine.made.push(this);
  }
  start() {
    this.calls.push('start');
  }
  stop() {
    this.calls.push('stop');
  }
  abort() {
    this.calls.push('abort');
  }
  result(resultIndex: number, ...rs: Array<[string, boolean]>) {
    this.onresult?.({ resultIndex, results: rs.map(([transcript, isFinal]) => ({ isFinal, 0: { transcript } })) });
  }
}

function run() {
  Engine.made = [];
  const seen = { states: [] as DictationState[], finals: [] as string[], interim: [] as string[], errors: [] as string[] };
  const d = new Dictation(Engine, {
    onState: (s) => seen.states.push(s),
    onFinal: (t) => seen.finals.push(t),
    onInterim: (t) => seen.interim.push(t),
    onError: (e, code) => seen.errors.push(`${e}:${code}`),
  });
  return { d, seen };
}

describe('Dictation over an engine', () => {
  it('listens in the given language, hands on final words once and interim words as they change', () => {
    const { d, seen } = run();
    d.toggle('zh-CN');
    const e = Engine.made[0]!;
    expect([e.lang, e.continuous, e.interimResults, e.calls]).toEqual(['zh-CN', true, true, ['start']]);
    e.onstart?.();
    e.result(0, ['list the', false]);
    e.result(0, ['list the files', true], ['in src', false]);
    e.result(1, ['list the files', true], ['in src', true]);
    expect(seen.finals).toEqual(['list the files', 'in src']);
    expect(seen.interim).toEqual(['list the', 'in src', '']);
    d.toggle('zh-CN');
    expect(e.calls).toEqual(['start', 'stop']);
    e.onend?.();
    expect(seen.states).toEqual(['starting', 'listening', 'stopping', 'idle']);
    expect(d.state).toBe('idle');
  });

  it('tells a refused microphone, a missing service and a missing microphone apart, and stays quiet on silence', () => {
    for (const [code, told] of [
      ['not-allowed', ['not-allowed:not-allowed']],
      ['service-not-allowed', ['not-allowed:service-not-allowed']],
      ['network', ['network:network']],
      ['audio-capture', ['no-microphone:audio-capture']],
      ['bad-grammar', ['other:bad-grammar']],
      ['no-speech', []],
    ] as const) {
      const { d, seen } = run();
      d.toggle('en-US');
      Engine.made[0]!.onerror?.({ error: code });
      Engine.made[0]!.onend?.();
      expect(seen.errors).toEqual(told);
      expect(d.state).toBe('idle');
    }
  });

  it('a second press before the engine started aborts it, and a stale engine changes nothing', () => {
    const { d, seen } = run();
    d.toggle('en-US');
    d.toggle('en-US');
    const first = Engine.made[0]!;
    expect(first.calls).toEqual(['start', 'abort']);
    first.onend?.();
    d.toggle('en-US');
    const second = Engine.made[1]!;
    // The first engine's late events belong to a run that is over.
    first.result(0, ['ghost words', true]);
    first.onend?.();
    expect(d.state).toBe('starting');
    expect(seen.finals).toEqual([]);
    second.onstart?.();
    expect(d.state).toBe('listening');
  });

  it('an engine that throws on start leaves the machine idle and says so', () => {
    const { d, seen } = run();
    class Busy extends Engine {
      override start(): void {
        throw Object.assign(new Error('already started'), { name: 'InvalidStateError' });
      }
    }
    const busy = new Dictation(Busy, {
      onState: (s) => seen.states.push(s),
      onFinal: () => undefined,
      onInterim: () => undefined,
      onError: (e, code) => seen.errors.push(`${e}:${code}`),
    });
    busy.toggle('en-US');
    expect(busy.state).toBe('idle');
    expect(seen.errors).toEqual(['other:InvalidStateError']);
    expect(d.state).toBe('idle');
  });
});

describe('speech helpers', () => {
  it('joins dictated words to typed text', () => {
    expect(appendDictated('', ' list files ')).toBe('list files');
    expect(appendDictated('please', 'list files')).toBe('please list files');
    expect(appendDictated('please ', 'list files')).toBe('please list files');
    expect(appendDictated('请', '列出文件')).toBe('请列出文件');
    expect(appendDictated('typed', '   ')).toBe('typed');
  });

  it('names the language of the app for both engines', () => {
    expect(speechLang('en')).toBe('en-US');
    expect(speechLang('zh-CN')).toBe('zh-CN');
  });

  it('finds the standard or the prefixed engine, and nothing where there is none', () => {
    expect(recognitionConstructor({ webkitSpeechRecognition: Engine })).toBe(Engine);
    expect(recognitionConstructor({ SpeechRecognition: Engine, webkitSpeechRecognition: class {} })).toBe(Engine);
    expect(recognitionConstructor({})).toBeUndefined();
    expect(synthesis({ speechSynthesis: {} })).toBeUndefined();
    expect(synthesis({})).toBeUndefined();
  });
});
