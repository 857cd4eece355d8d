import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DependencyUnavailableError, InternalError } from '../../lib/errors.js';
import { SrcError } from '../../lib/sandbox/src/errors.js';
import { OTP, resendOtp, startOtp, validateOtp } from '../../lib/sandbox/src/otp.js';
import type { SrcSessionState } from '../../lib/sandbox/src/session-store.js';
import { NetworkSigningKeys } from '../../lib/sandbox/src/signing-keys.js';

/** The pure OTP rules (clock-dependent cases) and the signing-key loader's failure modes. */
const fresh: SrcSessionState = { dpaId: 'd', cardBrands: ['VISA'], authenticated: false, locked: false, enrolledCards: [] };
const T0 = 1_800_000_000_000;

describe('OTP rules', () => {
  it('expires a code after 10 minutes, and a resend renews it without giving back attempts', () => {
    const sent = startOtp(fresh, 'returning', 'EMAIL', T0);
    const wrong = validateOtp(sent, '000000', T0 + 1000);
    expect(wrong.state.otp?.attemptsLeft).toBe(2);
    const late = validateOtp(wrong.state, OTP.code, T0 + OTP.validForMs + 1);
    expect(late.reply).toBeInstanceOf(SrcError);
    expect((late.reply as SrcError).reason).toBe('OTP_EXPIRED');
    const resent = resendOtp(late.state, T0 + OTP.validForMs + 2);
    expect(resent.state.otp).toMatchObject({ attemptsLeft: 2, resendsLeft: 2, issuedAt: T0 + OTP.validForMs + 2 });
    const ok = validateOtp(resent.state, OTP.code, T0 + OTP.validForMs + 3);
    expect(ok.reply).toBe('authenticated');
    expect(ok.state.authenticated).toBe(true);
    expect(ok.state.otp).toBeUndefined();
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
