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

/**
 * A fresh code after a successful identity lookup: full resends, but the session's wrong
 * attempts stay spent (`otpFailures`): a new lookup never gives attempts back.
 */
export function startOtp(state: SrcSessionState, consumerId: string, channel: ValidationChannel, nowMs: number): SrcSessionState {
  return {
    ...state,
    consumerId,
    authenticated: false,
    otp: { channel, issuedAt: nowMs, resendsLeft: OTP.maxResends },
  };
}

/** Wrong codes this session may still take before it locks. */
export function attemptsLeft(state: SrcSessionState): number {
  return Math.max(0, OTP.maxAttempts - (state.otpFailures ?? 0));
}

export type OtpOutcome = 'locked' | 'no-pending' | 'expired' | 'correct' | 'wrong';

/** What checking `code` would do, without doing it (the network counts wrong codes per consumer first). */
export function otpOutcome(state: SrcSessionState, code: string, nowMs: number): OtpOutcome {
  if (state.locked) return 'locked';
  const otp = state.otp;
  if (!otp) return 'no-pending';
  if (code === OTP.expiredTrigger || nowMs - otp.issuedAt > OTP.validForMs) return 'expired';
  return code === OTP.code ? 'correct' : 'wrong';
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
 * Checks a code. Wrong codes spend the session's attempts (the third locks the session); an
 * expired code spends none — the consumer asks for a new one.
 */
export function validateOtp(state: SrcSessionState, code: string, nowMs: number): RuleResult<'authenticated'> {
  switch (otpOutcome(state, code, nowMs)) {
    case 'locked':
      return { state, reply: retriesExceeded() };
    case 'no-pending':
      return { state, reply: noPendingOtp() };
    case 'expired':
      return { state, reply: new SrcError(400, 'OTP_EXPIRED', 'The code has expired: request a new one.') };
    case 'correct': {
      const { otp: _spent, ...rest } = state;
      return { state: { ...rest, authenticated: true }, reply: 'authenticated' };
    }
    case 'wrong': {
      const failed = { ...state, otpFailures: (state.otpFailures ?? 0) + 1 };
      const remainingAttempts = attemptsLeft(failed);
      if (remainingAttempts <= 0) {
        const { otp: _spent, ...rest } = failed;
        return { state: { ...rest, authenticated: false, locked: true }, reply: retriesExceeded() };
      }
      return { state: failed, reply: new SrcError(400, 'OTP_INVALID', 'The code is not correct.', { remainingAttempts }) };
    }
  }
}
