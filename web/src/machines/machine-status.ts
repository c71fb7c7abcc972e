/** How a machine's link state reads on screen, and the command that fixes it (pure). */
import type { MachineState } from '../hub/app-state.js';
import { t } from '../i18n.js';
import { UPGRADE_REFUSED } from '../net/rpc-connection.js';

/** `online`, `offline since 14:02`, `access revoked`, `not allowed` … */
export function machineStatusText(m: Pick<MachineState, 'status' | 'downSince'>, locale?: string): string {
  switch (m.status) {
    case 'online':
      return t('machineOnline');
    case 'connecting':
      return m.downSince === undefined ? t('machineConnecting') : offlineSince(m.downSince, locale);
    case 'offline':
      return m.downSince === undefined ? t('machineOffline') : offlineSince(m.downSince, locale);
    case 'unauthorized':
      return t('machineRevoked');
    case 'not_allowed':
      return t('machineNotAllowed');
    case 'wrong_hub':
      return t('machineWrongHub');
    case 'refused':
      return t('machineRefused');
  }
}

function offlineSince(at: number, locale?: string): string {
  return t('machineOfflineSince', new Date(at).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' }));
}

/** What a refusing machine said, in words (the hub's message, or the upgrade that never opened). */
export function refusalText(m: Pick<MachineState, 'refusal'>): string {
  return m.refusal === undefined || m.refusal === UPGRADE_REFUSED ? t('machineUpgradeRefused') : m.refusal;
}

/** The command to run on the machine that fixes its state, if one does. */
export function fixCommand(m: Pick<MachineState, 'status'>, homeOrigin: string): string | undefined {
  if (m.status === 'not_allowed') return `zcode-hub peers add ${homeOrigin}`;
  if (m.status === 'refused') return 'zcode-hub doctor';
  if (m.status === 'unauthorized' || m.status === 'wrong_hub') return `zcode-hub pair --into ${homeOrigin}`;
  return undefined;
}

/** The command that revokes this phone's token on a machine we could not reach. */
export function revokeCommand(tokenId: string | undefined): string {
  return tokenId ? `zcode-hub token revoke ${tokenId}` : 'zcode-hub token list   # then: zcode-hub token revoke <id>';
}
