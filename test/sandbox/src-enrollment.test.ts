import { calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose';
import { describe, expect, it } from 'vitest';
import { currentRecipientKey } from '../support/checkout.js';
import { encryptCard, enrollment, newSession, signedIn, src } from './src-client.js';

/**
 * Enrollment: the card arrives as a JWE to the service's current key. The network has no
 * Decrypt permission, so it checks the JWE's shape and recipient only and keeps masked data.
 */
const enroll = (sessionId: string, body: Record<string, unknown>) => src('/cards/enroll', { sessionId, ...body });
const reason = (response: { body: { error?: { reason?: string } } }) => response.body.error?.reason;

/** Replaces one segment of a compact JWE. */
function withSegment(jwe: string, index: number, value: string): string {
  const parts = jwe.split('.');
  parts[index] = value;
  return parts.join('.');
}
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('card enrollment', () => {
  it('enrolls a card (201) into an authenticated session: masked card back, listed with the others', async () => {
    const sessionId = await signedIn('new@example.com');
    const response = await enroll(sessionId, await enrollment());
    expect(response.status).toBe(201);
    expect(response.body.card).toEqual({
      srcDigitalCardId: expect.stringMatching(/^enr_[A-Za-z0-9_-]{16}$/),
      brand: 'VISA',
      panLastFour: '1111',
      panExpirationMonth: '12',
      panExpirationYear: '2030',
      descriptorName: 'Visa card',
    });
    expect((await src('/cards', { sessionId })).body.cards).toEqual([response.body.card]);
  });

  it('lets a guest (consumer not present) enroll a Mastercard', async () => {
    const sessionId = await newSession();
    await src('/identity-lookup', { sessionId, identity: { type: 'EMAIL', value: 'guest@example.com' } });
    const response = await enroll(sessionId, await enrollment({ brand: 'MASTERCARD', panBin: '222300', panLastFour: '0001', panExpirationYear: '31' }));
    expect(response.status).toBe(201);
    expect(response.body.card).toMatchObject({ brand: 'MASTERCARD', panLastFour: '0001', panExpirationYear: '2031' });
  });

  it('rejects malformed JWEs with INVALID_CARD', async () => {
    const sessionId = await newSession();
    const good = await encryptCard();
    const current = await currentRecipientKey();
    const header = (overrides: Record<string, unknown>) => b64({ alg: 'RSA-OAEP-256', enc: 'A128GCM', kid: current.kid, ...overrides });
    const malformed: Record<string, string> = {
      'not a JWE': 'hello',
      'four segments': good.split('.').slice(0, 4).join('.'),
      'a JWS': `${b64({ alg: 'RS256', kid: current.kid })}.${b64({})}.c2ln`,
      'header not JSON': withSegment(good, 0, Buffer.from('{nope').toString('base64url')),
      'non-base64url characters': withSegment(good, 3, 'a+b/c='),
      'alg RSA-OAEP': withSegment(good, 0, header({ alg: 'RSA-OAEP' })),
      'enc A256GCM': withSegment(good, 0, header({ enc: 'A256GCM' })),
      'zip header': withSegment(good, 0, header({ zip: 'DEF' })),
      'encrypted key not one RSA block': withSegment(good, 1, Buffer.alloc(128).toString('base64url')),
      'IV of 16 bytes': withSegment(good, 2, Buffer.alloc(16).toString('base64url')),
      'empty ciphertext': withSegment(good, 3, ''),
      'short tag': withSegment(good, 4, Buffer.alloc(8).toString('base64url')),
    };
    for (const [name, encryptedCard] of Object.entries(malformed)) {
      const response = await enroll(sessionId, await enrollment({ encryptedCard }));
      expect([response.status, reason(response)], name).toEqual([400, 'INVALID_CARD']);
      expect(response.raw, name).not.toContain('4111111111111111');
    }
  });

  it('rejects a JWE to another key (kid not the current 4.2 key)', async () => {
    const sessionId = await newSession();
    const { publicKey } = await generateKeyPair('RSA-OAEP-256', { extractable: true });
    const jwk = await exportJWK(publicKey);
    const stranger = { ...jwk, kid: await calculateJwkThumbprint(jwk) };
    const response = await enroll(sessionId, await enrollment({ encryptedCard: await encryptCard({ key: stranger }) }));
    expect([response.status, reason(response)]).toEqual([400, 'INVALID_CARD']);
    // Right key material, but labelled with another kid: refused too.
    const relabelled = withSegment(await encryptCard(), 0, b64({ alg: 'RSA-OAEP-256', enc: 'A128GCM', kid: stranger.kid }));
    expect(reason(await enroll(sessionId, await enrollment({ encryptedCard: relabelled })))).toBe('INVALID_CARD');
  });

  it('rejects masked data that cannot be a valid card', async () => {
    const sessionId = await newSession();
    const cases: Record<string, Record<string, unknown>> = {
      'brand does not match the BIN': { brand: 'MASTERCARD', panBin: '411111' },
      'expired card': { panExpirationMonth: '01', panExpirationYear: '2020' },
      'brand the network does not know': { brand: 'AMEX', panBin: '371449' },
      'last four not digits': { panLastFour: '11a1' },
      'no cardholder name': { cardholderName: '  ' },
    };
    for (const [name, overrides] of Object.entries(cases)) {
      const response = await enroll(sessionId, await enrollment(overrides));
      expect([response.status, reason(response)], name).toEqual([400, 'INVALID_CARD']);
    }
  });

  it('refuses a brand the DPA did not list at init', async () => {
    const init = await src('/init', { dpaId: 'dpa-visa-only', cardBrands: ['visa'] });
    const response = await enroll(init.body.sessionId, await enrollment({ brand: 'MASTERCARD', panBin: '555555', panLastFour: '4444' }));
    expect([response.status, reason(response)]).toEqual([400, 'INVALID_CARD']);
  });
});
