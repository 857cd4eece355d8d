import { encryptCompactJwe, type RsaEncryptionJwk } from '../jwe.js';
import type { NewCard } from './types.js';

/**
 * A new card as a compact JWE (RSA-OAEP-256 + A128GCM) to `key`: { primaryAccountNumber,
 * panExpirationMonth, panExpirationYear, cardSecurityCode, <holder> }. Only the holder-name
 * member differs between networks (Visa: cardHolderName; the sandbox 4.2 contract:
 * cardholderFullName), so the caller names it.
 */
export function encryptNewCard(
  card: NewCard,
  key: RsaEncryptionJwk & { kid: string },
  holderNameField: 'cardHolderName' | 'cardholderFullName',
): Promise<string> {
  return encryptCompactJwe(
    JSON.stringify({
      primaryAccountNumber: card.primaryAccountNumber,
      panExpirationMonth: card.panExpirationMonth,
      panExpirationYear: card.panExpirationYear,
      cardSecurityCode: card.cardSecurityCode,
      [holderNameField]: card.cardholderName,
    }),
    key,
    key.kid,
  );
}
