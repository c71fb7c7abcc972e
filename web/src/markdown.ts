/**
 * Markdown → HTML for agent messages: marked (GFM) with highlight.js on fenced code. Raw HTML in
 * the source is escaped by the renderer and links are limited to safe schemes, so the string is
 * already inert; the view still runs it through DOMPurify before it touches the DOM (defence in
 * depth). Pure: no DOM here, unit-tested in node (test/web/markdown.test.ts).
 */
import { Marked, type Tokens } from 'marked';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

// A dozen common languages keep highlight.js at ~30 KB instead of ~300 KB for all of them.
const LANGUAGES = { bash, css, diff, go, java, javascript, json, markdown, python, rust, sql, typescript, xml, yaml };
for (const [name, lang] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, lang);
hljs.registerAliases(['sh', 'shell', 'zsh', 'console'], { languageName: 'bash' });
hljs.registerAliases(['js', 'jsx', 'mjs', 'cjs'], { languageName: 'javascript' });
hljs.registerAliases(['ts', 'tsx'], { languageName: 'typescript' });
hljs.registerAliases(['html', 'svg'], { languageName: 'xml' });
hljs.registerAliases(['py'], { languageName: 'python' });
hljs.registerAliases(['yml'], { languageName: 'yaml' });
hljs.registerAliases(['md'], { languageName: 'markdown' });
hljs.registerAliases(['rs'], { languageName: 'rust' });
hljs.registerAliases(['patch'], { languageName: 'diff' });

/** HTML-escapes text. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const SAFE_URL = /^(https?:|mailto:|#|\/(?!\/))/i;

/** True for link targets we render as links (http(s), mailto, same-site paths and anchors). */
export function isSafeUrl(href: string): boolean {
  const h = href.trim();
  // Browsers read `\` as `/` and drop tabs and newlines in URLs, so `/\evil.example` or
  // `/<tab>/evil.example` would be protocol-relative: another host.
  for (let i = 0; i < h.length; i++) {
    const c = h.charCodeAt(i);
    if (c === 0x5c || c < 0x20 || c === 0x7f) return false;
  }
  return SAFE_URL.test(h);
}

/** Highlighted HTML of a code block (escaped plain text for unknown languages). */
export function highlightCode(code: string, lang: string | undefined): string {
  const name = (lang ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  if (name && hljs.getLanguage(name)) return hljs.highlight(code, { language: name, ignoreIllegals: true }).value;
  return escapeHtml(code);
}

const marked = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    html(token: Tokens.HTML | Tokens.Tag): string {
      return escapeHtml(token.text);
    },
    code(token: Tokens.Code): string {
      const lang = (token.lang ?? '').trim().split(/\s+/)[0] ?? '';
      const cls = lang ? ` class="hljs language-${escapeHtml(lang)}"` : ' class="hljs"';
      return `<pre><code${cls}>${highlightCode(token.text, lang)}</code></pre>\n`;
    },
    link(this: { parser: { parseInline(t: Tokens.Generic[]): string } }, token: Tokens.Link): string {
      const text = this.parser.parseInline(token.tokens);
      if (!isSafeUrl(token.href)) return text;
      const title = token.title ? ` title="${escapeHtml(token.title)}"` : '';
      return `<a href="${escapeHtml(token.href)}"${title} target="_blank" rel="noopener noreferrer">${text}</a>`;
    },
    image(token: Tokens.Image): string {
      // Remote images would leak the reader's address to any host the agent names: show the text.
      return escapeHtml(token.text || token.href);
    },
  },
});

/** Markdown source → HTML string (inert; sanitize again before inserting). */
export function markdownToHtml(source: string): string {
  return marked.parse(source, { async: false });
}
