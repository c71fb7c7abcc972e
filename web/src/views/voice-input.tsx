import { useEffect, useRef, useState } from 'preact/hooks';
import { toast } from '../hub/app-state.js';
import { t, useLocale } from '../i18n.js';
import { Dictation, type DictationState, recognitionConstructor, speechLang } from '../media/speech.js';
import { Icon } from './icons.js';

/** What a person is told when dictation stops on its own, by cause. */
const VOICE_ERRORS = { 'not-allowed': 'voiceRefused', network: 'voiceNetwork', 'no-microphone': 'voiceNoMicrophone' } as const;

/**
 * The composer's mic: dictation into the prompt where the browser has speech recognition, in the
 * app's language. Finished words go to `onWords`; the words still being recognised show under the
 * prompt until they are final. Renders nothing where the browser has no recognition.
 */
export function useVoiceInput(onWords: (text: string) => void) {
  const locale = useLocale();
  const [state, setState] = useState<DictationState>('idle');
  const [interim, setInterim] = useState('');
  const words = useRef(onWords);
  words.current = onWords;
  const dictation = useRef<Dictation | undefined>(undefined);
  const Ctor = recognitionConstructor();
  if (Ctor && !dictation.current)
    dictation.current = new Dictation(Ctor, {
      onState: setState,
      onFinal: (text) => words.current(text),
      onInterim: setInterim,
      onError: (error, code) => toast(error === 'other' ? t('voiceFailed', code) : t(VOICE_ERRORS[error])),
    });
  useEffect(() => () => dictation.current?.dispose(), []);

  const button = dictation.current ? (
    <button
      type="button"
      class={`icon-btn mic-btn ${state !== 'idle' ? 'listening' : ''}`}
      aria-label={state === 'idle' ? t('voiceInput') : t('voiceStop')}
      aria-pressed={state !== 'idle'}
      data-testid="voice-button"
      data-state={state}
      onClick={() => dictation.current?.toggle(speechLang(locale))}
    >
      <Icon name="mic" />
    </button>
  ) : null;
  const listening =
    state === 'listening' || interim ? (
      <div class="dictation muted small" aria-live="polite" data-testid="dictation">
        {interim || t('voiceListening')}
      </div>
    ) : null;
  return { button, listening };
}
