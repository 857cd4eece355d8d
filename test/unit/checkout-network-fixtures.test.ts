import { generateKeyPairSync } from 'node:crypto';
import { DecryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { exportJWK, importJWK, type JWK } from 'jose';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { decryptCheckoutJwe } from '../../lib/core/checkout/jwe.js';
import { verifyCheckoutJws } from '../../lib/core/checkout/jws.js';
import { parseDecryptedPayload, resolveEci } from '../../lib/core/checkout/payment-data.js';
import { parseCheckoutRequest } from '../../lib/core/checkout/sdk-result.js';
import { CheckoutPayloadInvalidError } from '../../lib/core/errors.js';
import { PayloadKeyVault } from '../../lib/adapters/kms/payload-key-vault.js';
import { brandOf } from '../../lib/core/payments/brand.js';
import { maskPaymentMethod } from '../../lib/core/payments/masking.js';
import { needsStepUp } from '../../lib/core/payments/three-ds-policy.js';
import {
  buildCheckoutFixture,
  fixtureNow,
  MASTERCARD_NETWORK_KID,
  PAYLOAD_SHAPES,
  VISA_NETWORK_KID,
  type FixtureKeys,
} from '../fixtures/network-checkout-responses.js';

/**
 * Issue 10 items 2–3: every published Visa and Mastercard shape goes through the real chain —
 * SDK result → JWS (network key the test trusts, frozen clock) → JWE through the local KMS
 * server with the network-assigned kid registered → EMVCo payload → ECI → 3DS decision.
 */
const PAYLOAD_KEY = process.env.PAYLOAD_KEY_IDS!;
let keys: FixtureKeys;
let networkJwk: JWK;

beforeAll(async () => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const kid = 'fixture-network-es256';
  keys = {
    signingKey: { ...(await exportJWK(privateKey)), kid, alg: 'ES256' },
    recipientKey: (await new PayloadKeyVault(kmsClient(), [PAYLOAD_KEY]).publicKeys())[0]!.jwk,
  };
  networkJwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256' };
});

function kmsClient() {
  return new KMSClient({ endpoint: process.env.KMS_ENDPOINT, region: 'us-east-1' });
}

/** The vault as production builds it, with both networks' kids registered for the payload key. */
function registeredVault() {
  const kms = kmsClient();
  const send = vi.spyOn(kms, 'send');
  const logger = { info: vi.fn(), warn: vi.fn() };
  const vault = new PayloadKeyVault(kms, [PAYLOAD_KEY], { networkKids: { [PAYLOAD_KEY]: [VISA_NETWORK_KID, MASTERCARD_NETWORK_KID] }, logger });
  return { vault, logger, decrypts: () => send.mock.calls.filter(([c]) => c instanceof DecryptCommand).length };
}

async function run(sdkResult: unknown, vault: PayloadKeyVault) {
  const request = parseCheckoutRequest({ checkoutResponse: sdkResult });
  const verified = await verifyCheckoutJws(
    request.jws,
    async ({ kid, alg }) => {
      if (kid !== networkJwk.kid) throw new Error('unknown kid');
      return (await importJWK(networkJwk, alg)) as CryptoKey;
    },
    { maxAgeSeconds: 900, now: fixtureNow },
  );
  const credential = parseDecryptedPayload(await decryptCheckoutJwe(verified.payload.encryptedPayload, vault));
  return { request, verified, credential, eci: resolveEci(credential, verified.payload.assuranceData?.eci, brandOf(credential.number)) };
}

describe('network checkout fixtures, every shape (local KMS, registered network kids)', () => {
  for (const shape of PAYLOAD_SHAPES) {
    it(`${shape.name} (${shape.source})`, async () => {
      const { vault, logger, decrypts } = registeredVault();
      const { sdkResult } = await buildCheckoutFixture(shape, keys);
      const expected = shape.expected;
      if (expected.invalid) {
        await expect(run(sdkResult, vault)).rejects.toBeInstanceOf(CheckoutPayloadInvalidError);
        return;
      }
      const { request, verified, credential, eci } = await run(sdkResult, vault);
      expect(request.network).toBe(shape.brand === 'VISA' ? 'visa' : 'mastercard');
      expect(decrypts()).toBe(1); // the registered kid named the key: no trial
      expect(logger.warn).not.toHaveBeenCalled();
      expect(credential.kind).toBe(expected.kind);
      expect(credential.cryptogramType).toBe(expected.cryptogramType);
      expect(eci).toBe(expected.eci);
      const brand = brandOf(credential.number);
      expect(brand).toBe(shape.brand);
      expect(needsStepUp('risk-based', eci, brand)).toBe(expected.riskBasedStepUp);
      expect(needsStepUp('always', eci, brand)).toBe(expected.alwaysStepUp);
      expect(needsStepUp('never', eci, brand)).toBe(false);
      // What is recorded on the payment: the type, PAR if any, never the cryptogram's value.
      const masked = maskPaymentMethod('CLICK_TO_PAY', brand, credential, verified.payload.maskedCard);
      expect(masked.cryptogramType).toBe(expected.cryptogramType);
      expect(masked.paymentAccountReference).toBe(expected.par);
      expect(JSON.stringify(masked)).not.toContain(credential.cryptogram);
    });
  }

  it('covers both assuranceData shapes for both brands, and Mastercard’s JWS carries iss', async () => {
    const shapesOf = (brand: string) =>
      new Set(PAYLOAD_SHAPES.filter((s) => s.brand === brand).map((s) => ('verificationData' in s.assuranceData ? 'verification' : 'card')));
    expect(shapesOf('VISA')).toEqual(new Set(['verification', 'card']));
    expect(shapesOf('MASTERCARD')).toEqual(new Set(['verification', 'card']));
    const mastercard = await buildCheckoutFixture(PAYLOAD_SHAPES.find((s) => s.brand === 'MASTERCARD')!, keys);
    const header = JSON.parse(Buffer.from(mastercard.sdkResult.checkoutResponse.split('.')[0]!, 'base64url').toString()) as Record<string, unknown>;
    expect(header.iss).toBeTypeOf('string');
  });
});
