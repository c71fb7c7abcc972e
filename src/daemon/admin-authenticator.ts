import type { Authenticator, Identity } from '../auth/identity.js';
import { secretEquals } from '../auth/admin-token.js';

/** Accepts only the state-dir admin token (used until device tokens are configured). */
export function adminTokenAuthenticator(adminToken: string): Authenticator {
  const identity: Identity = { tokenId: 'admin', name: 'admin', person: 'admin', scope: 'admin' };
  return {
    async authenticate(credential: string) {
      return secretEquals(credential, adminToken) ? identity : null;
    },
  };
}
