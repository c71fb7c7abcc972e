import { describe, expect, it } from 'vitest';
import { escapeHtml, highlightCode, isSafeUrl, markdownToHtml } from '../../web/src/markdown.js';

describe('markdown rendering', () => {
  it('renders GFM with highlighted fenced code', () => {
    const html = markdownToHtml('# Title\n\n- a\n- b\n\n```ts\nconst x: number = 1;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |');
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<li>a</li>');
    expect(html).toContain('<code class="hljs language-ts">');
    expect(html).toContain('<span class="hljs-keyword">const</span>');
    expect(html).toContain('<table>');
  });

  it('escapes raw HTML and drops unsafe links and remote images (inert before DOMPurify)', () => {
    const html = markdownToHtml(
      'hi <script>alert(1)</script> <img src=x onerror=alert(1)>\n\n[click](javascript:alert(1)) [ok](https://example.com) ![pic](https://evil.example/p.png)',
    );
    expect(html).not.toMatch(/<script|<img/i);
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">ok</a>');
    expect(html).toContain('pic');
  });

  it('highlights only known languages and escapes the rest', () => {
    expect(highlightCode('<b>', 'nope')).toBe('&lt;b&gt;');
    expect(highlightCode('echo hi', 'sh')).toContain('hljs-built_in');
    expect(escapeHtml(`"'&`)).toBe('&quot;&#39;&amp;');
    expect(isSafeUrl('/s/1')).toBe(true);
    expect(isSafeUrl('//evil.example')).toBe(false);
    expect(isSafeUrl('data:text/html,x')).toBe(false);
  });
});
