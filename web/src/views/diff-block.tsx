import { highlightLine, languageOf } from '../changes/highlight.js';
import { numberedDiff, type DiffRow } from '../changes/numbered-diff.js';
import { t } from '../i18n.js';

/** One line of code, highlighted for the file's language. */
export function CodeLine({ text, lang }: { text: string; lang: string | undefined }) {
  const tokens = highlightLine(text, lang);
  if (tokens.length === 0) return <>{'\u200b'}</>;
  return (
    <>
      {tokens.map((tk, i) =>
        tk.cls === 'plain' ? (
          tk.text
        ) : (
          <span key={i} class={`hl-${tk.cls}`}>
            {tk.text}
          </span>
        ),
      )}
    </>
  );
}

/**
 * A readable unified diff: old and new line numbers, a +/− gutter, highlighted code that wraps
 * on a phone instead of scrolling sideways, and collapsed runs of unchanged lines.
 */
export function DiffBlock({
  path,
  oldText,
  newText,
  start = 1,
}: {
  path: string;
  oldText: string | null;
  newText: string;
  start?: number;
}) {
  return <DiffRows path={path} rows={numberedDiff(oldText, newText, start)} />;
}

/** The table of a diff's rows, whoever computed them (the Changes view, git's own diff in the Git sheet). */
export function DiffRows({ path, rows }: { path: string; rows: DiffRow[] }) {
  const lang = languageOf(path);
  return (
    <table class="udiff" aria-label={path} data-testid="diff-block">
      <tbody>
        {rows.map((r, i) =>
          r.op === '…' ? (
            <tr key={i} class="ud-row ud-gap">
              <td class="ud-gap-text" colSpan={4}>{`⋯ ${t('unchangedLines', r.count)}`}</td>
            </tr>
          ) : (
            <tr key={i} class={`ud-row ud-${r.op === '+' ? 'add' : r.op === '-' ? 'del' : 'ctx'}`} data-op={r.op}>
              <td class="ud-no" aria-hidden="true">
                {r.oldNo ?? ''}
              </td>
              <td class="ud-no" aria-hidden="true">
                {r.newNo ?? ''}
              </td>
              <td class="ud-sign">
                <span aria-hidden="true">{r.op === ' ' ? '' : r.op === '-' ? '−' : '+'}</span>
                {r.op === ' ' ? null : <span class="sr-only">{r.op === '+' ? t('lineAdded') : t('lineRemoved')}</span>}
              </td>
              <td class="ud-code">
                <code>
                  <CodeLine text={r.text} lang={lang} />
                </code>
              </td>
            </tr>
          ),
        )}
      </tbody>
    </table>
  );
}
