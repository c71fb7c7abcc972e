import DOMPurify from 'dompurify';
import { useMemo } from 'preact/hooks';
import { markdownToHtml } from '../markdown.js';

/** Renders agent Markdown: marked + highlight.js (already inert), then DOMPurify (defence in depth). */
export function Markdown({ text, class: cls = 'md' }: { text: string; class?: string }) {
  const html = useMemo(
    () => DOMPurify.sanitize(markdownToHtml(text), { ADD_ATTR: ['target'], FORBID_TAGS: ['style', 'form', 'input'] }),
    [text],
  );
  return <div class={cls} dangerouslySetInnerHTML={{ __html: html }} />;
}
