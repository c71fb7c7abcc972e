import { highlightLine, languageOf } from '../changes/highlight.js';
import { numberedDiff } from '../changes/numbered-diff.js';
import { t } from '../i18n.js';

/** One line of code, highlighted for the file's language. */
export function CodeLine({ text, lang }: { text: string; lang: string | undefined }) {
  const tokens = highlightLine(text, lang);
  if (tokens.length === 0) return <>{'\u200b'}</>;
  return (
    <>
      {tokens.map((tk, i) => (tk.cls === 'plain' ? tk.text : <span key={i} class={`hl-${tk.cls}`}>{tk.text}</span>))}
    </>
  );
}

/**
 * A readable unified diff: old and new line numbers, a +/− gutter, highlighted code that wraps
 * on a phone instead of scrolling sideways, and collapsed runs of unchanged lines.
 */
export function DiffBlock({ path, oldText, newText, start = 1 }: { path: string; oldText: string | null; newText: string; start?: number }) {
  const lang = languageOf(path);
  const rows = numberedDiff(oldText, newText, start);
  return (
    <div class="udiff" role="table" aria-label={path} data-testid="diff-block">
      {rows.map((r, i) =>
        r.op === '…' ? (
          <div key={i} class="ud-row ud-gap" role="row">
            <span class="ud-gap-text" role="cell">{`⋯ ${t('unchangedLines', r.count)}`}</span>
          </div>
        ) : (
          <div key={i} class={`ud-row ud-${r.op === '+' ? 'add' : r.op === '-' ? 'del' : 'ctx'}`} role="row" data-op={r.op}>
            <span class="ud-no" role="cell" aria-hidden="true">{r.oldNo ?? ''}</span>
            <span class="ud-no" role="cell" aria-hidden="true">{r.newNo ?? ''}</span>
            <span class="ud-sign" role="cell" aria-label={r.op === '+' ? 'added' : r.op === '-' ? 'removed' : undefined}>{r.op === ' ' ? '' : r.op === '-' ? '−' : '+'}</span>
            <code class="ud-code" role="cell">
              <CodeLine text={r.text} lang={lang} />
            </code>
          </div>
        ),
      )}
    </div>
  );
}
