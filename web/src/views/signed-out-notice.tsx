import { signedOutReason } from '../hub/sign-out.js';
import { t } from '../i18n.js';

/** On the pairing screen: why this device is here again (signed out, or revoked/expired). */
export function SignedOutNotice() {
  const reason = signedOutReason();
  if (!reason) return null;
  return (
    <p class="signed-out" role="status" data-testid="signed-out">
      {reason === 'self' ? t('signedOutSelf') : t('signedOutRevoked')}
    </p>
  );
}
