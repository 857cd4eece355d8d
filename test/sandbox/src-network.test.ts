import { describe, expect, it } from 'vitest';
import { DPA, newSession, randomId, signedIn, src } from './src-client.js';

/** docs/sandbox-src-contract.md: every endpoint's success and each documented error reason. */
const lookup = (sessionId: string, value: string, type: 'EMAIL' | 'MOBILE_NUMBER' = 'EMAIL') =>
  src('/identity-lookup', { sessionId, identity: { type, value } });
const validate = (sessionId: string, otp: string) => src('/otp/validate', { sessionId, otp });
const reason = (response: { body: { error?: { reason?: string } } }) => response.body.error?.reason;

describe('init', () => {
  it('opens an SRC session with an opaque id', async () => {
    const response = await src('/init', DPA);
    expect(response.status).toBe(200);
    expect(response.body.sessionId).toMatch(/^src_[A-Za-z0-9_-]{43}$/);
    expect(response.headers['Cache-Control']).toBe('no-store');
  });

  it('fails for an invalid- DPA (documented SDK initialization failure) and a bad body', async () => {
    const invalid = await src('/init', { ...DPA, dpaId: 'invalid-dpa' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ error: { reason: 'INVALID_DPA', message: expect.any(String) } });
    expect(reason(await src('/init', { ...DPA, cardBrands: [] }))).toBe('INVALID_DPA');
  });

  it('answers 415 for a non-JSON body and 400 for malformed JSON', async () => {
    const { invoke } = await import('../support/invoke.js');
    const { handler } = await import('../../functions/sandbox-src/handler.js');
    const form = await invoke(handler, { method: 'POST', path: '/sandbox/src/init', body: 'dpaId=x', contentType: 'application/x-www-form-urlencoded' });
    expect([form.status, reason(form)]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const broken = await invoke(handler, { method: 'POST', path: '/sandbox/src/init', body: '{"dpaId":' });
    expect([broken.status, reason(broken)]).toEqual([400, 'INVALID_REQUEST']);
  });
});

describe('identity lookup', () => {
  it('finds the returning consumer by email (EMAIL channel) and by phone (SMS channel)', async () => {
    const sessionId = await newSession();
    expect((await lookup(sessionId, 'Returning@Example.com')).body).toEqual({
      consumerPresent: true,
      maskedValidationChannel: 'r***@example.com',
      validationChannel: 'EMAIL',
    });
    expect((await lookup(sessionId, '+971 50 000 0001', 'MOBILE_NUMBER')).body).toEqual({
      consumerPresent: true,
      maskedValidationChannel: '+971*****0001',
      validationChannel: 'SMS',
    });
  });

  it('answers consumerPresent false for anyone else, ACCOUNT_LOCKED for the locked consumer, INVALID_IDENTITY for junk', async () => {
    const sessionId = await newSession();
    expect((await lookup(sessionId, 'someone@example.com')).body).toEqual({ consumerPresent: false });
    const locked = await lookup(sessionId, 'locked@example.com');
    expect([locked.status, reason(locked)]).toEqual([403, 'ACCOUNT_LOCKED']);
    const junk = await lookup(sessionId, 'not-an-email');
    expect([junk.status, reason(junk)]).toEqual([400, 'INVALID_IDENTITY']);
    expect(reason(await lookup(sessionId, '12', 'MOBILE_NUMBER'))).toBe('INVALID_IDENTITY');
  });

  it('answers SESSION_NOT_FOUND for an unknown session id', async () => {
    const response = await lookup(randomId(), 'returning@example.com');
    expect([response.status, reason(response)]).toEqual([404, 'SESSION_NOT_FOUND']);
  });
});

describe('one-time code', () => {
  it('returns the cards and the masked consumer for 123456', async () => {
    const sessionId = await newSession();
    await lookup(sessionId, 'returning@example.com');
    const response = await validate(sessionId, '123456');
    expect(response.status).toBe(200);
    expect(response.body.consumer).toEqual({ maskedEmail: 'r***@example.com', maskedMobileNumber: '+971*****0001' });
    expect(response.body.cards.map((c: { panLastFour: string }) => c.panLastFour)).toEqual(['1111', '4444', '3220', '0002']);
    expect(response.body.cards[0]).toEqual({
      srcDigitalCardId: 'visa-classic',
      brand: 'VISA',
      panLastFour: '1111',
      panExpirationMonth: '12',
      panExpirationYear: '2029',
      descriptorName: 'Visa Classic',
    });
    expect((await src('/cards', { sessionId })).body.cards).toEqual(response.body.cards);
  });

  it('counts wrong codes down and locks the session at the third (RETRIES_EXCEEDED)', async () => {
    const sessionId = await newSession();
    await lookup(sessionId, 'returning@example.com');
    const first = await validate(sessionId, '000000');
    expect(first.status).toBe(400);
    expect(first.body.error).toMatchObject({ reason: 'OTP_INVALID', remainingAttempts: 2 });
    expect((await validate(sessionId, '111111')).body.error).toMatchObject({ reason: 'OTP_INVALID', remainingAttempts: 1 });
    const third = await validate(sessionId, '222222');
    expect([third.status, reason(third)]).toEqual([403, 'RETRIES_EXCEEDED']);
    // Locked: even the right code, a resend or another lookup no longer help.
    expect(reason(await validate(sessionId, '123456'))).toBe('RETRIES_EXCEEDED');
    expect(reason(await src('/otp/resend', { sessionId }))).toBe('RETRIES_EXCEEDED');
    expect(reason(await lookup(sessionId, 'new@example.com'))).toBe('ACCOUNT_LOCKED');
    expect(reason(await src('/cards', { sessionId }))).toBe('NOT_AUTHENTICATED');
  });

  it('treats 999999 as expired without spending an attempt', async () => {
    const sessionId = await newSession();
    await lookup(sessionId, 'returning@example.com');
    const expired = await validate(sessionId, '999999');
    expect([expired.status, reason(expired)]).toEqual([400, 'OTP_EXPIRED']);
    expect((await validate(sessionId, '000000')).body.error.remainingAttempts).toBe(2);
  });

  it('resends three times, then RESEND_LIMIT; no pending code → NO_PENDING_OTP', async () => {
    const sessionId = await newSession();
    const none = await src('/otp/resend', { sessionId });
    expect([none.status, reason(none)]).toEqual([409, 'NO_PENDING_OTP']);
    expect(reason(await validate(sessionId, '123456'))).toBe('NO_PENDING_OTP');
    await lookup(sessionId, '+971500000002', 'MOBILE_NUMBER');
    for (const resendsLeft of [2, 1, 0]) {
      const resent = await src('/otp/resend', { sessionId });
      expect(resent.status).toBe(200);
      expect(resent.body).toEqual({ maskedValidationChannel: '+971*****0002', resendsLeft });
    }
    const limit = await src('/otp/resend', { sessionId });
    expect([limit.status, reason(limit)]).toEqual([429, 'RESEND_LIMIT']);
    expect((await validate(sessionId, '123456')).status).toBe(200);
  });
});

describe('cards and sign-out', () => {
  it('needs authentication (NOT_AUTHENTICATED) and fails for the cards-error consumer (SERVICE_ERROR)', async () => {
    const sessionId = await newSession();
    const anonymous = await src('/cards', { sessionId });
    expect([anonymous.status, reason(anonymous)]).toEqual([401, 'NOT_AUTHENTICATED']);
    await lookup(sessionId, 'cards-error@example.com');
    const validated = await validate(sessionId, '123456');
    expect(validated.status).toBe(200);
    expect(validated.body).toEqual({ consumer: { maskedEmail: 'c***@example.com' } });
    const failing = await src('/cards', { sessionId });
    expect([failing.status, reason(failing)]).toEqual([500, 'SERVICE_ERROR']);
  });

  it('shows the known consumer without cards an empty list', async () => {
    const sessionId = await signedIn('new@example.com');
    expect((await src('/cards', { sessionId })).body).toEqual({ cards: [] });
  });

  it('signs out: the consumer is forgotten, the session stays usable; unknown sessions are fine too', async () => {
    const sessionId = await signedIn();
    expect((await src('/sign-out', { sessionId })).body).toEqual({});
    expect(reason(await src('/cards', { sessionId }))).toBe('NOT_AUTHENTICATED');
    expect((await lookup(sessionId, 'returning@example.com')).body.consumerPresent).toBe(true);
    const unknown = await src('/sign-out', { sessionId: randomId() });
    expect([unknown.status, unknown.body]).toEqual([200, {}]);
  });
});
