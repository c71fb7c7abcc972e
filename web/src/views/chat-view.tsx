import type { RefObject } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { mayBrowse, scopeOn, store, toast } from '../hub/app-state.js';
import type { ChatItem, OutboxPrompt, RetryPrompt } from '../hub/chat-types.js';
import { promptNotSent } from '../hub/prompt-send.js';
import { takeBackPrompt } from '../hub/waiting-prompts.js';
import type { HubClient } from '../hub/hub-client.js';
import { planPlace, type PlanPlace } from '../hub/chat-reducer.js';
import { badgeOf, type Badge } from '../hub/session-list.js';
import { sessionWaits } from '../hub/session-waits.js';
import { t } from '../i18n.js';
import { navigate } from '../router.js';
import { useSelector } from '../store.js';
import { ChatItemView, PlanView } from './chat-items.js';
import { TopBar } from './chrome.js';
import { ConfigBar } from './config-bar.js';
import { PromptBox } from './prompt-box.js';
import { StateBadge } from './session-list-view.js';
import { GitBadge } from './git-sheet.js';
import { MachineChip } from './machines-view.js';
import { SessionIdContext, SessionLinks, TaskRunningBadge, useRunningTasks } from './session-links.js';
import { WaitingBanner } from './waiting-banner.js';
import { TodoRefContext } from './special-tool-card.js';
import { todoRefs } from '../hub/todo-cards.js';
import { RenameSheet } from './rename-sheet.js';
import { useAttachedSession } from './session-page.js';
import { usePillRoom } from './pill-room.js';

/**
 * Who is on the session. Each device's label has "person · device" in it, so devices are set
 * apart by commas. With the link down the hub cannot say who is still there: the line is in italics
 * and says it is who was there when the connection dropped.
 */
function PresenceLine({ names, live }: { names: string[]; live: boolean }) {
  const list = names.join(', ');
  return (
    <div class={`presence muted small${live ? '' : ' presence-stale'}`} data-testid="presence" {...(live ? {} : { 'data-stale': '' })}>
      {live ? list : t('presenceBeforeDrop', list)}
    </div>
  );
}

/** One session: the conversation, pickers, plan, queue and prompt box. */
export function ChatView({ client, sessionId }: { client: HubClient; sessionId: string }) {
  const chat = useSelector(store, (s) => s.chats[sessionId]);
  const summary = useSelector(store, (s) => s.sessions[sessionId]);
  const scope = useSelector(store, (s) => scopeOn(s, client.hubId));
  const canBrowse = useSelector(store, (s) => mayBrowse(s, client.hubId));
  const presence = useSelector(store, (s) => s.presence[sessionId]);
  const linkUp = useSelector(store, (s) => client.online(s));
  // A session of another machine says which one in its header (the home hub's sessions need not).
  const machine = useSelector(store, (s) => (client.hubId !== undefined ? s.machines[client.hubId] : undefined));
  const loadingEarlier = useSelector(store, (s) => s.loadingEarlier[sessionId] ?? false);
  // Selected here, not in WaitingPrompts: the conversation's scroll keeps to the bottom on this view's renders.
  const waiting = useSelector(store, (s) => s.waitingPrompts[sessionId]);
  const interactions = useSelector(store, (s) => s.interactions);
  const waits = sessionWaits(interactions, sessionId, client.hubId);
  const [renaming, setRenaming] = useState(false);
  const tasks = useRunningTasks(sessionId);

  useAttachedSession(client, sessionId);

  // Seen: clears the "just finished" badge.
  useEffect(() => {
    store.update((s) => ({ ...s, seenAt: { ...s.seenAt, [sessionId]: Date.now() } }));
  }, [sessionId, summary?.finishedAt]);

  const { scroller, sentinel, onScroll } = useChatScroll(client, sessionId, chat?.history.hasMore);
  usePillRoom(scroller);

  const items = chat?.items ?? [];
  const running = chat ? chat.turn.state !== 'idle' : false;
  const plan = chat ? planPlace(chat) : undefined;
  // An untitled session has an empty title: the header shows the list's fallback, the rename box starts empty.
  const named = chat?.title || summary?.title || '';
  const title = named || t('untitled');
  const canOperate = scope !== 'view';
  const retry = (r: RetryPrompt) =>
    client.prompt(sessionId, r.text, r.images).catch((err: unknown) => {
      const why = promptNotSent(err);
      if (why) toast(why);
    });
  return (
    <div class="page chat">
      <TopBar
        title={title}
        lean
        back={() => navigate({ name: 'sessions' })}
        subtitle={
          <>
            {summary ? (
              <HeaderState
                badge={badgeOf(summary, Date.now(), Date.now(), waits)}
                waitingFor={waits.waitingFor}
                tasks={tasks}
                sessionId={sessionId}
              />
            ) : null}
            <MachineChip m={machine} />
            {/* Under the title, not beside it: on a phone the title needs the row's width (a long branch took it). */}
            {canBrowse ? <GitBadge sessionId={sessionId} running={running} /> : null}
          </>
        }
        {...(canOperate ? { onTitle: () => setRenaming(true), titleLabel: t('rename') } : {})}
      >
        <SessionLinks sessionId={sessionId} canBrowse={canBrowse} />
      </TopBar>
      {/* The one `main` landmark: pickers, conversation and composer (the header is the banner). */}
      <main class="page-main">
        {chat ? <ConfigBar chat={chat} client={client} canOperate={canOperate} /> : null}
        {presence && presence.length > 1 ? <PresenceLine names={presence.map((p) => p.name)} live={linkUp} /> : null}
        <div class="scroll messages" ref={scroller} data-testid="messages" onScroll={onScroll}>
          <HistoryEdge
            ref_={sentinel}
            hasMore={chat?.history.hasMore}
            loaded={!!chat}
            loading={loadingEarlier}
            onLoad={() => void client.loadEarlier(sessionId)}
          />
          <SessionIdContext.Provider value={sessionId}>
            <Conversation items={items} running={running} plan={plan} onRetry={canOperate ? retry : undefined} />
            <WaitingPrompts waiting={waiting} />
          </SessionIdContext.Provider>
        </div>
        {plan?.pinned ? <PlanView entries={plan.entries} pinned /> : null}
        <WaitingBanner sessionId={sessionId} />
        {chat && canOperate ? <PromptBox chat={chat} client={client} /> : null}
      </main>
      {renaming ? <RenameSheet client={client} sessionId={sessionId} current={named} onClose={() => setRenaming(false)} /> : null}
    </div>
  );
}

/** The messages, each todo card told where its steps are drawn, and a finished plan at the end of its turn. */
function Conversation(p: {
  items: ChatItem[];
  running: boolean;
  plan: PlanPlace | undefined;
  onRetry: ((r: RetryPrompt) => void) | undefined;
}) {
  const refs = todoRefs(p.items, p.plan?.turnIndex);
  const lastAgent = p.items.length - 1;
  return (
    <>
      {p.items.map((item, i) => (
        // A todo list's steps show once: its other cards point at the view that draws them.
        <TodoRefContext.Provider key={item.id} value={refs.get(item.id)}>
          <ChatItemView item={item} streaming={p.running && i === lastAgent} onRetry={p.onRetry} />
        </TodoRefContext.Provider>
      ))}
      {/* A finished plan belongs to its turn (the latest): collapsed at its end, not pinned over an idle composer. */}
      {p.plan && !p.plan.pinned ? <PlanView entries={p.plan.entries} pinned={false} /> : null}
    </>
  );
}

/** Prompts sent while this chat's link reconnects: after the messages, marked waiting, until they go (waiting-prompts.ts). */
function WaitingPrompts({ waiting }: { waiting: OutboxPrompt[] | undefined }) {
  if (!waiting?.length) return null;
  return (
    <>
      {waiting.map((p) => (
        <ChatItemView
          key={p.localId}
          item={{ kind: 'user', id: p.localId, text: p.text, images: p.images, localId: p.localId, own: true }}
          streaming={false}
          waitingForLink={() => takeBackPrompt(p.localId)}
        />
      ))}
    </>
  );
}

/** The header's state: the session's badge, unless it would say idle (or just finished) while a background task still runs. */
function HeaderState(p: { badge: Badge; waitingFor: string | undefined; tasks: number; sessionId: string }) {
  if (p.tasks > 0 && (p.badge === 'idle' || p.badge === 'finished')) return <TaskRunningBadge sessionId={p.sessionId} count={p.tasks} />;
  return <StateBadge badge={p.badge} waitingFor={p.waitingFor} />;
}

/**
 * The conversation's scrolling: older history loads when the top comes into view, the view stays
 * pinned to the bottom while streaming unless the reader scrolled up, and the reading position
 * holds when older history is prepended.
 */
function useChatScroll(client: HubClient, sessionId: string, hasMore: boolean | undefined) {
  const scroller = useRef<HTMLDivElement>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const prevHeight = useRef(0);
  // Older history when the top comes into view.
  useEffect(() => {
    const el = sentinel.current;
    if (!el) return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && scroller.current) {
        prevHeight.current = scroller.current.scrollHeight;
        void client.loadEarlier(sessionId).catch(() => undefined);
      }
    });
    io.observe(el);
    return () => io.disconnect();
  }, [sessionId, hasMore]);

  // Keep the view pinned to the bottom while streaming, unless the reader scrolled up; keep the
  // reading position when older history is prepended.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (prevHeight.current && el.scrollTop < 50) {
      el.scrollTop = el.scrollHeight - prevHeight.current;
      prevHeight.current = 0;
    } else if (stick.current) el.scrollTop = el.scrollHeight;
  });
  // The view's own height changes without a render of it — the room made below the messages
  // while the connection pill shows (polish.css), the composer growing, the keyboard opening: a
  // reader at the bottom stays there (else the pill covers the last message, a prompt waiting for
  // the link), and one who scrolled up to read keeps the place.
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const ro = new ResizeObserver(() => {
      if (stick.current) el.scrollTop = el.scrollHeight;
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const onScroll = (e: { currentTarget: HTMLDivElement }) => {
    const el = e.currentTarget;
    stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
  };
  return { scroller, sentinel, onScroll };
}

/** The top of the conversation: a button for older turns, or that there are none. */
function HistoryEdge(p: {
  ref_: RefObject<HTMLDivElement | null>;
  hasMore: boolean | undefined;
  loaded: boolean;
  loading: boolean;
  onLoad: () => void;
}) {
  return (
    <div ref={p.ref_} class="history-edge muted small">
      {p.hasMore ? (
        <button type="button" class="link" onClick={p.onLoad} disabled={p.loading} data-testid="load-earlier">
          {p.loading ? t('loading') : t('loadEarlier')}
        </button>
      ) : p.loaded ? (
        t('noEarlier')
      ) : (
        t('loading')
      )}
    </div>
  );
}
