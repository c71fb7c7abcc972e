import { t } from '../i18n.js';

/** "+3 −1" in green and red. */
export function LineCounts({ added, removed }: { added: number; removed: number }) {
  return (
    <span class="line-counts">
      <span class="lc-add">
        <span aria-hidden="true">{`+${added}`}</span>
        <span class="sr-only">{t('linesAdded', added)}</span>
      </span>
      <span class="lc-del">
        <span aria-hidden="true">{`−${removed}`}</span>
        <span class="sr-only">{t('linesRemoved', removed)}</span>
      </span>
    </span>
  );
}
