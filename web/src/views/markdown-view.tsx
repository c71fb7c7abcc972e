import { useEffect, useMemo, useState } from 'preact/hooks';

type Render = (text: string) => string;

// marked, highlight.js and DOMPurify are the largest part of the app: they load with the first
// message that needs them, not with the first screen (the session list or pairing).
let render: Render | undefined;
let loading: Promise<Render> | undefined;
function loadRenderer(): Promise<Render> {
  loading ??= import('./markdown-html.js').then((m) => {
    render = m.markdownHtml;
    return m.markdownHtml;
  });
  return loading;
}

/** Runs `fn` in a task of its own, so the page can paint and take input in between. */
function nextTask(fn: () => void): void {
  setTimeout(fn, 0);
}

/** Renders agent Markdown; the plain text shows (wrapped as written) until the renderer has loaded. */
export function Markdown({ text, class: cls = 'md' }: { text: string; class?: string }) {
  const [fn, setFn] = useState<Render | undefined>(() => render);
  useEffect(() => {
    if (fn) return;
    let live = true;
    // The module's evaluation, and then each message's first render, in a task of its own: a
    // reloaded chat renders its messages one by one instead of in one long task that holds up
    // a tap (Lighthouse's Total Blocking Time on a chat).
    void loadRenderer().then((r) =>
      nextTask(() => {
        if (live) setFn(() => r);
      }),
    );
    return () => {
      live = false;
    };
  }, [fn]);
  const html = useMemo(() => fn?.(text), [fn, text]);
  if (html === undefined) return <div class="md-pending">{text}</div>;
  return <div class={cls} dangerouslySetInnerHTML={{ __html: html }} />;
}
