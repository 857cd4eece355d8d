import type { ValidationChannel } from './consumers.js';
import { SrcError } from './errors.js';
import type { SrcSessionState } from './session-store.js';

/**
 * One-time-code rules of the sandbox network, as pure functions of the session state.
 * Documented triggers: `123456` is the code; `999999` is always "expired".
 */
export const OTP = {
  code: '123456',
  expiredTrigger: '999999',
  maxAttempts: 3,
  maxResends: 3,
  validForMs: 10 * 60_000,
} as const;

/** Outcome of a rule: the state to persist, and either a reply or the refusal to send after saving. */
export interface RuleResult<T> {
  state: SrcSessionState;
  reply: T | SrcError;
}

const noPendingOtp = () => new SrcError(409, 'NO_PENDING_OTP', 'No one-time code is pending for this session.');
const retriesExceeded = () => new SrcError(403, 'RETRIES_EXCEEDED', 'Too many wrong codes: this session is locked.');

/** A fresh code after a successful identity lookup: full attempts and resends. */
export function startOtp(state: SrcSessionState, consumerId: string, channel: ValidationChannel, nowMs: number): SrcSessionState {
  return {
    ...state,
    consumerId,
    authenticated: false,
    otp: { channel, issuedAt: nowMs, attemptsLeft: OTP.maxAttempts, resendsLeft: OTP.maxResends },
  };
}

/** Resending renews the code's lifetime; it does not give back wrong attempts. */
export function resendOtp(state: SrcSessionState, nowMs: number): RuleResult<{ channel: ValidationChannel; resendsLeft: number }> {
  if (state.locked) return { state, reply: retriesExceeded() };
  const otp = state.otp;
  if (!otp) return { state, reply: noPendingOtp() };
  if (otp.resendsLeft <= 0) return { state, reply: new SrcError(429, 'RESEND_LIMIT', 'The code cannot be sent again.') };
  const next = { ...otp, issuedAt: nowMs, resendsLeft: otp.resendsLeft - 1 };
  return { state: { ...state, otp: next }, reply: { channel: next.channel, resendsLeft: next.resendsLeft } };
}

/**
 * Checks a code. Wrong codes spend attempts (the third locks the session); an expired code
 * spends none — the consumer asks for a new one.
 */
export function validateOtp(state: SrcSessionState, code: string, nowMs: number): RuleResult<'authenticated'> {
  if (state.locked) return { state, reply: retriesExceeded() };
  const otp = state.otp;
  if (!otp) return { state, reply: noPendingOtp() };
  if (code === OTP.expiredTrigger || nowMs - otp.issuedAt > OTP.validForMs) {
    return { state, reply: new SrcError(400, 'OTP_EXPIRED', 'The code has expired: request a new one.') };
  }
  if (code === OTP.code) {
    const { otp: _spent, ...rest } = state;
    return { state: { ...rest, authenticated: true }, reply: 'authenticated' };
  }
  const attemptsLeft = otp.attemptsLeft - 1;
  if (attemptsLeft <= 0) {
    const { otp: _spent, ...rest } = state;
    return { state: { ...rest, authenticated: false, locked: true }, reply: retriesExceeded() };
  }
  return {
    state: { ...state, otp: { ...otp, attemptsLeft } },
    reply: new SrcError(400, 'OTP_INVALID', 'The code is not correct.', { remainingAttempts: attemptsLeft }),
  };
}
