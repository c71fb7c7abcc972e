import { t } from '../i18n.js';

/** "+3 −1" in green and red. */
export function LineCounts({ added, removed }: { added: number; removed: number }) {
  return (
    <span class="line-counts">
      <span class="lc-add" aria-label={t('linesAdded', added)}>{`+${added}`}</span>
      <span class="lc-del" aria-label={t('linesRemoved', removed)}>{`−${removed}`}</span>
    </span>
  );
}
