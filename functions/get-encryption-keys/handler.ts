import { authenticator } from '../../lib/composition/core.js';
import { payloadKeyVault } from '../../lib/composition/keys.js';
import { apiHandler } from '../../lib/http/api-handler.js';
import { noQuery } from '../../lib/http/params.js';
import { routes } from '../../lib/http/routes.js';

/** SPEC 4.2 — public payload keys from KMS, current first; cacheable for five minutes. */
export const handler = apiHandler(
  routes.getEncryptionKeys,
  {
    authenticator,
    query: noQuery,
  },
  async () => {
    const keys = await payloadKeyVault.publicKeys();
    return {
      body: { encryptionKeyId: keys[0]!.kid, keys: keys.map((key) => ({ ...key.jwk, status: key.status })) },
      headers: { 'Cache-Control': 'max-age=300' },
    };
  },
);
