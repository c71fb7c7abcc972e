import { useEffect, useRef, useState } from 'preact/hooks';
import { t, useLocale } from '../i18n.js';
import { speechLang, synthesis } from '../media/speech.js';
import { Icon } from './icons.js';

/**
 * "Read aloud" under a finished answer, where the browser can speak: reads the answer as it is
 * shown (the rendered text, not the Markdown source) in the app's language; pressed again, stops.
 * Renders nothing where the browser has no speech synthesis.
 */
export function ReadAloud({ text }: { text: () => string }) {
  const locale = useLocale();
  const [speaking, setSpeaking] = useState(false);
  const mine = useRef<SpeechSynthesisUtterance | undefined>(undefined);
  const engine = synthesis();
  useEffect(
    () => () => {
      if (mine.current) engine?.cancel();
    },
    [engine],
  );
  if (!engine) return null;

  function toggle() {
    if (!engine) return;
    // One voice at a time in the whole app: starting here ends any other reading.
    engine.cancel();
    if (speaking) {
      mine.current = undefined;
      setSpeaking(false);
      return;
    }
    const u = new SpeechSynthesisUtterance(text());
    u.lang = speechLang(locale);
    const done = () => {
      if (mine.current !== u) return;
      mine.current = undefined;
      setSpeaking(false);
    };
    u.onend = done;
    u.onerror = done;
    mine.current = u;
    setSpeaking(true);
    engine.speak(u);
  }

  return (
    <button type="button" class="link-btn read-aloud small" aria-pressed={speaking} data-testid="read-aloud" onClick={toggle}>
      <Icon name="speaker" size={16} />
      {speaking ? t('stopReading') : t('readAloud')}
    </button>
  );
}
