/**
 * What removing a machine did, step by step, when any step fell short: the machine revoked this
 * phone's key or not (then the command that does it there), this browser deleted the key or not,
 * and the home hub unlisted it or not — refused (a view device) or failed (try again). Never
 * "removed" for a step that did not happen.
 */
import { useState } from 'preact/hooks';
import { t } from '../i18n.js';
import { revokeCommand } from '../machines/machine-status.js';
import { unlistAtHome, type RemoveResult, type UnlistResult } from '../machines/registry.js';
import { Command } from './command.js';

/** One removal, as the page keeps it: who, where, what the machine's token id was, and what happened. */
export interface Removal {
  hubId: string;
  name: string;
  url: string;
  home: string;
  tokenId: string | undefined;
  result: RemoveResult;
}

/** True when every step succeeded: a toast says so and no card is needed. */
export function removedCleanly(r: RemoveResult): boolean {
  return r.revoked && r.forgotten && r.unlist.ok;
}

function UnlistLine({ removal, unlist, onRetry }: { removal: Removal; unlist: UnlistResult; onRetry: () => void }) {
  const { name, home, url } = removal;
  if (unlist.ok) return <p class="small">{t('machineUnlistDone', name, home)}</p>;
  // How to get operate is said once, under the list (a view device's page always shows it).
  if (unlist.needsOperate)
    return (
      <p class="small" data-testid="machine-unlist-refused">
        {t('machineUnlistNeedsOperate', name, home, url)}
      </p>
    );
  return (
    <>
      <p class="small error">{t('machineUnlistFailed', name, home, url, unlist.error)}</p>
      <button type="button" data-testid="machine-unlist-retry" onClick={onRetry}>
        {t('machineUnlistRetry')}
      </button>
    </>
  );
}

/** The card under the list after a removal that was not complete. */
export function RemoveOutcome({ removal }: { removal: Removal }) {
  const [unlist, setUnlist] = useState(removal.result.unlist);
  const [busy, setBusy] = useState(false);
  const { name, result } = removal;
  const retry = async () => {
    setBusy(true);
    setUnlist(await unlistAtHome(removal.hubId));
    setBusy(false);
  };
  return (
    <div class="card" role="alert" data-testid="machine-remove-outcome" data-unlisted={String(unlist.ok)} aria-busy={busy}>
      {result.revoked ? (
        <p class="small">{t('machineRemoveRevoked', name)}</p>
      ) : (
        <div data-testid="machine-removed-offline">
          <p class="small">{t('machineRemoveNotRevoked', name)}</p>
          <Command text={revokeCommand(removal.tokenId)} />
        </div>
      )}
      <p class="small">{t(result.forgotten ? 'machineRemoveKeyGone' : 'machineRemoveKeyKept', name)}</p>
      <UnlistLine removal={removal} unlist={unlist} onRetry={() => void retry()} />
    </div>
  );
}
