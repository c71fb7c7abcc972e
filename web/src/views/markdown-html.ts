import DOMPurify from 'dompurify';
import { markdownToHtml } from '../markdown.js';

/** Agent Markdown as sanitised HTML: marked + highlight.js (already inert), then DOMPurify (defence in depth). */
export function markdownHtml(text: string): string {
  return DOMPurify.sanitize(markdownToHtml(text), { ADD_ATTR: ['target'], FORBID_TAGS: ['style', 'form', 'input'] });
}
