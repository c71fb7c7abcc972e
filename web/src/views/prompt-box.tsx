import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { store, toast } from '../hub/app-state.js';
import { useSelector } from '../store.js';
import { draftOf } from '../hub/composer-drafts.js';
import { forgetComposer, noteComposer, takeKeptDraft } from '../hub/kept-drafts.js';
import type { ChatState } from '../hub/chat-types.js';
import type { HubClient } from '../hub/hub-client.js';
import { t } from '../i18n.js';
import { WEB_LIMITS } from '../limits.js';
import { downscaleImage, type PreparedImage } from '../media/downscale.js';
import { promptNotSent, takeBackQueued } from '../hub/prompt-send.js';
import { ownQueued } from '../hub/local-prompts.js';
import { notSentWhy } from '../hub/not-sent.js';
import { Icon } from './icons.js';
import { appendDictated } from '../media/speech.js';
import { useVoiceInput } from './voice-input.js';
import { useComposerAssist } from './composer-assist.js';

/**
 * The box's text. What it holds is known outside it, so a sign-out can keep it (kept-drafts.ts),
 * and it is the session's draft for this tab (composer-drafts.ts): leaving the chat, a reload or a
 * phone discarding the tab gives it back — once the hub has named this device's person, and only
 * to the person who typed it. Text kept through a sign-out comes back here once the hub names the
 * same person again — sent only if the user presses Send, and said so by a short line (`given`)
 * until the box is sent or emptied; its prompt's failure then makes no toast (the pairing screen
 * said the text is kept, GivenBack says it was not sent: once each).
 */
function useComposerText(sessionId: string) {
  const person = useSelector(store, (s) => s.me?.person);
  const [text, setText] = useState(() => (person === undefined ? '' : (draftOf(sessionId, person) ?? '')));
  const [given, setGiven] = useState(false);
  /** The person whose draft the box was given (so a re-render does not give it twice). */
  const restoredFor = useRef(person);
  useEffect(() => {
    if (person === undefined) return;
    const draft = restoredFor.current === person ? undefined : draftOf(sessionId, person);
    restoredFor.current = person;
    const kept = takeKeptDraft(sessionId, person);
    const back = [kept, draft].filter((t): t is string => t !== undefined && t.trim() !== '');
    if (!back.length) return;
    setText((cur) => [...back, ...(cur.trim() && !back.includes(cur) ? [cur] : [])].join('\n'));
    if (kept !== undefined) setGiven(true);
  }, [person]);
  // A layout effect, run with the render a keystroke causes: a sign-out the next event brings must
  // find the box's text noted (an after-paint effect can run up to 100 ms later, after the revocation).
  useLayoutEffect(() => {
    if (store.get().paired !== false) noteComposer(sessionId, text);
    if (!text.trim()) setGiven(false);
  }, [text]);
  useEffect(() => () => forgetComposer(sessionId), []);
  return { text, setText, given };
}

/** The prompt box: text, images (gallery, camera, paste), the queue, send and stop. */
export function PromptBox({ chat, client }: { chat: ChatState; client: HubClient }) {
  const { text, setText, given } = useComposerText(chat.sessionId);
  const [images, setImages] = useState<PreparedImage[]>([]);
  const input = useRef<HTMLTextAreaElement>(null);
  const busy = chat.turn.state !== 'idle';
  const voice = useVoiceInput((words) => setText((cur) => appendDictated(cur, words)));
  const assist = useComposerAssist({ chat, client, text, setText, input });
  const { stopping, stop } = useStop(client, chat.sessionId);
  // The box grows with its text (typed, dictated or given back), up to a few lines, and shrinks when sent.
  useLayoutEffect(() => {
    const el = input.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = text ? `${Math.min(el.scrollHeight, 160)}px` : '';
  }, [text]);

  async function addFiles(files: Iterable<File>) {
    const picked = [...files].filter((f) => f.type.startsWith('image/')).slice(0, WEB_LIMITS.imagesPerPrompt - images.length);
    const prepared = await Promise.all(picked.map((f) => downscaleImage(f).catch(() => undefined)));
    setImages((cur) => [...cur, ...prepared.filter((p): p is PreparedImage => !!p)].slice(0, WEB_LIMITS.imagesPerPrompt));
  }

  function send() {
    const body = text.trim();
    if (!body && !images.length) return;
    if (!images.length && assist.runIfCommand(body)) return;
    const imgs = images;
    const links = assist.takeLinks(body);
    setText('');
    setImages([]);
    client.prompt(chat.sessionId, body, imgs, links).catch((err: unknown) => {
      // Not sent (the wait for the link ended, or the user took it back): give the text back
      // rather than lose it, ahead of what was typed while it waited.
      setText((cur) => (cur.trim() ? `${body}\n${cur}` : body));
      setImages((cur) => [...imgs, ...cur].slice(0, WEB_LIMITS.imagesPerPrompt));
      const why = promptNotSent(err);
      if (why && store.get().paired !== false) toast(why);
    });
  }

  return (
    <div class="composer">
      <QueueChips chat={chat} hubId={client.hubId} />
      {given ? <GivenBack /> : null}
      <ImageThumbs images={images} onRemove={(i) => setImages((cur) => cur.filter((_, k) => k !== i))} />
      {voice.listening}
      {assist.list}
      <div class="composer-row">
        {/* While a turn runs the camera gives Stop its place: the gallery stays, and a phone's gallery picker offers the camera too. */}
        <ImagePickers onFiles={(files) => void addFiles(files)} camera={!busy} />
        <textarea
          ref={input}
          class="prompt-input"
          rows={1}
          value={text}
          placeholder={t('promptPlaceholder')}
          aria-label={t('promptPlaceholder')}
          data-testid="prompt-input"
          {...assist.inputProps}
          onInput={(e) => {
            setText(e.currentTarget.value);
            assist.onInput(e.currentTarget);
          }}
          onPaste={(e) => {
            const files = [...(e.clipboardData?.files ?? [])];
            if (files.length) {
              e.preventDefault();
              void addFiles(files);
            }
          }}
          onKeyDown={(e) => {
            if (assist.onKeyDown(e)) return;
            // Enter sends on a keyboard with a physical Enter; phones use the button.
            if (e.key === 'Enter' && !e.shiftKey && !e.isComposing && matchMedia('(pointer: fine)').matches) {
              e.preventDefault();
              send();
            }
          }}
        />
        {voice.button}
        <SendStop busy={busy} stopping={stopping} canSend={!!text.trim() || images.length > 0} onStop={stop} onSend={send} />
      </div>
    </div>
  );
}

/** Above text kept through a sign-out and given back: it was not sent (no toast said it was lost). */
function GivenBack() {
  return (
    <p class="muted small composer-kept" data-testid="draft-given-back">
      {t('draftGivenBack')}
    </p>
  );
}

/**
 * The labelled Stop's face. The button is as wide as its icon and "Stop", pressed or not:
 * "Stopping…" is laid over that box (polish.css), so the press does not widen the button and
 * shrink the text box beside it — nor does Stop take more room than that while a turn runs, which
 * would cut the text box's placeholder on every turn.
 */
function StopFace() {
  return (
    <>
      <span class="stop-face">
        <Icon name="stop" size={16} />
        {t('stop')}
      </span>
      <span class="stop-busy">{t('stopWaiting')}</span>
    </>
  );
}

/** Stop pressed while the link reconnects waits for it (turn-stop.ts): `stopping` meanwhile, and a sentence when it did not go. */
function useStop(client: HubClient, sessionId: string): { stopping: boolean; stop: () => void } {
  const [stopping, setStopping] = useState(false);
  const stop = () => {
    setStopping(true);
    client
      .cancel(sessionId)
      .then(
        (r) => r === 'ended' && toast(t('stopNothingToStop')),
        (err: unknown) => toast(notSentWhy('stop', err) ?? t('stopNotSent')),
      )
      .finally(() => setStopping(false));
  };
  return { stopping, stop };
}

/** Who queued what behind the running turn. */
/**
 * The session's queue as the hub lists it; a prompt this page queued has "Don't send" (its ×),
 * which withdraws it alone and puts its text back in the box (prompt-send.ts `takeBackQueued`).
 */
function QueueChips({ chat, hubId }: { chat: ChatState; hubId: string | undefined }) {
  const clientId = useSelector(store, (s) => (hubId === undefined ? s.me?.clientId : s.machines[hubId]?.clientId));
  const queue = chat.turn.queue;
  if (!queue.length) return null;
  const own = ownQueued(queue, chat.outbox, clientId);
  return (
    <div class="queue" data-testid="queue">
      <span class="muted small">{t('queued', queue.length)}</span>
      {queue.map((q) => {
        const localId = own.get(q.promptId);
        return (
          <span class="chip" key={q.promptId} data-own={localId ? 'true' : undefined}>
            <span class="chip-text">{t('queuedBy', q.name ?? '?', q.preview ?? '')}</span>
            {localId ? (
              <button
                type="button"
                class="chip-x"
                data-testid="queue-take-back"
                aria-label={`${t('dontSend')}: ${q.preview ?? ''}`}
                onClick={() => takeBackQueued(localId)}
              >
                <Icon name="close" size={12} />
              </button>
            ) : null}
          </span>
        );
      })}
    </div>
  );
}

/** The images that go with the next prompt, each with its remove button. */
function ImageThumbs({ images, onRemove }: { images: PreparedImage[]; onRemove: (index: number) => void }) {
  if (!images.length) return null;
  return (
    <div class="thumbs">
      {images.map((img, i) => (
        <span class="thumb" key={i}>
          <img src={img.url} alt="" />
          <button type="button" class="thumb-x" aria-label={t('removeImage')} onClick={() => onRemove(i)}>
            <Icon name="close" size={14} />
          </button>
        </span>
      ))}
    </div>
  );
}

/** The gallery and (unless `camera` is false) camera buttons, with the hidden file inputs they open. */
function ImagePickers({ onFiles, camera: withCamera }: { onFiles: (files: Iterable<File>) => void; camera: boolean }) {
  const gallery = useRef<HTMLInputElement>(null);
  const camera = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" class="icon-btn" aria-label={t('attachImage')} onClick={() => gallery.current?.click()}>
        <Icon name="image" />
      </button>
      {withCamera ? (
        <button type="button" class="icon-btn" aria-label={t('takePhoto')} onClick={() => camera.current?.click()}>
          <Icon name="camera" />
        </button>
      ) : null}
      <input ref={gallery} type="file" accept="image/*" multiple hidden onChange={(e) => onFiles(e.currentTarget.files ?? [])} />
      <input
        ref={camera}
        type="file"
        accept="image/*"
        capture="environment"
        hidden
        onChange={(e) => onFiles(e.currentTarget.files ?? [])}
      />
    </>
  );
}

/**
 * Stop (while a turn runs) and send. At 390 px the text box needs the row: while a turn runs with
 * nothing typed, the labelled Stop takes Send's place (nothing to send yet); once something is
 * typed, Stop turns compact and Send becomes Queue beside it (a prompt sent now waits its turn).
 */
function SendStop(p: { busy: boolean; stopping: boolean; canSend: boolean; onStop: () => void; onSend: () => void }) {
  const { busy, canSend, onStop, onSend } = p;
  const compact = busy && canSend;
  const stopLabel = p.stopping ? t('stopWaiting') : t('stop');
  return (
    <>
      {busy ? (
        <button
          type="button"
          class={compact ? 'stop-btn stop-compact' : 'stop-btn'}
          onClick={onStop}
          disabled={p.stopping}
          aria-busy={p.stopping}
          data-testid="stop-button"
          {...(compact ? { 'aria-label': stopLabel, title: stopLabel } : {})}
        >
          {compact ? <Icon name="stop" size={16} /> : <StopFace />}
        </button>
      ) : null}
      {busy && !canSend ? null : (
        <button
          type="button"
          class="icon-btn primary"
          aria-label={busy ? t('queue') : t('send')}
          title={busy ? t('queue') : undefined}
          onClick={onSend}
          disabled={!canSend}
          data-testid="send-button"
        >
          <Icon name={busy ? 'queue' : 'send'} />
        </button>
      )}
    </>
  );
}
