import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DependencyUnavailableError, InternalError } from '../../lib/core/errors.js';
import { SrcError } from '../../lib/adapters/sandbox/src/errors.js';
import { attemptsLeft, OTP, resendOtp, startOtp, validateOtp } from '../../lib/adapters/sandbox/src/otp.js';
import type { SrcSessionState } from '../../lib/adapters/sandbox/src/session-store.js';
import { NetworkSigningKeys } from '../../lib/adapters/sandbox/src/signing-keys.js';

/** The pure OTP rules (clock-dependent cases) and the signing-key loader's failure modes. */
const fresh: SrcSessionState = { dpaId: 'd', cardBrands: ['VISA'], authenticated: false, locked: false, enrolledCards: [] };
const T0 = 1_800_000_000_000;

describe('OTP rules', () => {
  it('expires a code after 10 minutes, and a resend renews it without giving back attempts', () => {
    const sent = startOtp(fresh, 'returning', 'EMAIL', T0);
    const wrong = validateOtp(sent, '000000', T0 + 1000);
    expect(attemptsLeft(wrong.state)).toBe(2);
    const late = validateOtp(wrong.state, OTP.code, T0 + OTP.validForMs + 1);
    expect(late.reply).toBeInstanceOf(SrcError);
    expect((late.reply as SrcError).reason).toBe('OTP_EXPIRED');
    const resent = resendOtp(late.state, T0 + OTP.validForMs + 2);
    expect(resent.state.otp).toMatchObject({ resendsLeft: 2, issuedAt: T0 + OTP.validForMs + 2 });
    expect(attemptsLeft(resent.state)).toBe(2);
    const ok = validateOtp(resent.state, OTP.code, T0 + OTP.validForMs + 3);
    expect(ok.reply).toBe('authenticated');
    expect(ok.state.authenticated).toBe(true);
    expect(ok.state.otp).toBeUndefined();
  });
});

describe('OTP attempts survive a new lookup or a sign-out', () => {
  it("a fresh code after another lookup or a sign-out keeps the session's spent attempts", () => {
    const sent = startOtp(fresh, 'returning', 'EMAIL', T0);
    const twice = validateOtp(validateOtp(sent, '000000', T0).state, '111111', T0).state;
    expect(attemptsLeft(twice)).toBe(1);
    const { otp: _otp, consumerId: _consumer, ...signedOut } = twice;
    for (const again of [startOtp(twice, 'returning', 'EMAIL', T0 + 1), startOtp({ ...signedOut, authenticated: false }, 'sms-only', 'SMS', T0 + 1)]) {
      expect(attemptsLeft(again)).toBe(1);
      const third = validateOtp(again, '222222', T0 + 2);
      expect((third.reply as SrcError).reason).toBe('RETRIES_EXCEEDED');
      expect(third.state.locked).toBe(true);
    }
  });
});

describe('sandbox network signing keys', () => {
  const dir = process.env.TEST_DATA_DIR!;
  it('picks the key of the preferred algorithm from the private JWKS', async () => {
    const keys = new NetworkSigningKeys(pathToFileURL(join(dir, 'sandbox-network', 'private-jwks.json')).href);
    expect((await keys.pick(['ES256'])).alg).toBe('ES256');
    expect((await keys.pick(['PS256', 'RS256'])).alg).toBe('RS256');
  });

  it('is unavailable (503) when the file is missing, and refuses a public-only JWKS (500)', async () => {
    await expect(new NetworkSigningKeys(pathToFileURL(join(dir, 'nope.json')).href).pick(['RS256'])).rejects.toBeInstanceOf(DependencyUnavailableError);
    const publicOnly = new NetworkSigningKeys(pathToFileURL(join(dir, 'sandbox-network', 'jwks.json')).href);
    await expect(publicOnly.pick(['RS256'])).rejects.toBeInstanceOf(InternalError);
  });
});
