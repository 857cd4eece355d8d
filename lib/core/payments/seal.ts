import { CompactEncrypt, importJWK } from 'jose';
import type { PaymentCredential } from '../checkout/payment-data.js';
import type { KeyVault } from '../ports/key-vault.js';

/**
 * Encrypts payment data to the service's current payload key, exactly as a network would
 * (JWE, RSA-OAEP-256 + A256GCM, kid = thumbprint). Used to keep Direct Wallet data across a
 * 3DS challenge: only KMS can open it again, so nothing readable is stored.
 */
export async function sealToPayloadKey(keys: KeyVault, data: unknown): Promise<string> {
  const [current] = await keys.publicKeys();
  const publicKey = await importJWK(current!.jwk, 'RSA-OAEP-256');
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(data)))
    .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: current!.kid, cty: 'application/json' })
    .encrypt(publicKey);
}

/**
 * Only what 4.10 needs to authorize, in the EMVCo decrypted-payload shape it parses: the
 * account, its expiry, the chosen cryptogram, ECI and PAR. Addresses, contact data and any
 * extra fields of the request are not kept, and the result is a few hundred bytes whatever
 * the request carried (a JWE must stay under the 32 KiB limit that 4.10 enforces).
 */
export function sealablePaymentData(credential: PaymentCredential): Record<string, unknown> {
  const account =
    credential.kind === 'token'
      ? { token: { paymentToken: credential.number, tokenExpirationMonth: credential.expiryMonth, tokenExpirationYear: credential.expiryYear } }
      : { card: { primaryAccountNumber: credential.number, panExpirationMonth: credential.expiryMonth, panExpirationYear: credential.expiryYear } };
  return {
    ...account,
    dynamicData: [{ dynamicDataValue: credential.cryptogram, ...(credential.cryptogramType ? { dynamicDataType: credential.cryptogramType } : {}) }],
    ...(credential.eci ? { eci: credential.eci } : {}),
    ...(credential.paymentAccountReference ? { paymentAccountReference: credential.paymentAccountReference } : {}),
  };
}
