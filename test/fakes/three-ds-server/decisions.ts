/**
 * How the fake 3DS Server + DS + ACS decides (after 3dsecure.io's sandbox, sandbox.rst
 * "Browser Tests": the last four digits of acctNumber, one digit per step; extended where
 * the sandbox has no case). The service sends a network token as acctNumber: a token ending in
 * the digits below triggers the case. `testAccount()` in test-cards.ts makes Luhn-valid ones.
 *
 * | last 4 | digit | meaning |
 * |---|---|---|
 * | `9999` | all | preauth: not enrolled (Erro 305 "Unknown BIN"; the sandbox uses one PAN for this) |
 * | 1st | 0 | ACS and DS speak 2.1.0–2.3.1 |
 * |     | 1 | 2.1.0 only (this service offers no version: unsupported) |
 * |     | 2 | 2.2.0 only |
 * |     | 3 | 2.3.1 only |
 * | 2nd | 0 | the range has a 3DS Method URL; the method page posts its completion |
 * |     | 1 | no 3DS Method URL |
 * |     | 2 | a 3DS Method URL whose page never completes (the page's 10 s timeout) |
 * | 3rd | 0 | ARes Y (frictionless) |
 * |     | 1 | ARes N (transStatusReason 01) |
 * |     | 2 | ARes A (attempts) |
 * |     | 3 | ARes R (transStatusReason 11) |
 * |     | 4 | ARes I (2.2.0 and later) |
 * |     | 5 | ARes U (transStatusReason 22) |
 * |     | 6 | directory server timeout: Erro 405 after `dsTimeoutMs` |
 * |     | 7 | ARes C (challenge; 4th digit below) |
 * |     | 8 | ARes D (decoupled; fake only) |
 * | 4th (with C) | 0 | the challenge passes by itself (RReq Y) |
 * |     | 1 | the challenge fails by itself (RReq N, reason 01) |
 * |     | 2 | manual: code `1234` → Y, anything else → N; "Cancel" → N with challengeCancel 01 |
 *
 * Faults of the 3DS Server's /auth, by the purchase amount's last two digits (minor units):
 * `61` hangs (never answers, never processes), `62` answers 503 without processing, `63`
 * resets the connection after reading the request, without processing, `64` processes the
 * AReq (ledger, ARes stored, DS and ACS told) and loses the answer (connection reset), `65`
 * processes and answers after `slowMs`. Tests can also inject any of these on any endpoint
 * (faults.ts).
 */
export type VersionRange = readonly string[];
export type MethodCase = 'present' | 'absent' | 'never-completes';
export type AresCase = 'Y' | 'N' | 'A' | 'R' | 'I' | 'U' | 'ds-timeout' | 'C' | 'D';
export type ChallengeCase = 'auto-pass' | 'auto-fail' | 'manual';

export interface CardCase {
  enrolled: boolean;
  versions: VersionRange;
  method: MethodCase;
  ares: AresCase;
  challenge: ChallengeCase;
}

const VERSIONS: Record<string, VersionRange> = { '0': ['2.1.0', '2.2.0', '2.3.1'], '1': ['2.1.0'], '2': ['2.2.0'], '3': ['2.3.1'] };
const METHODS: Record<string, MethodCase> = { '0': 'present', '1': 'absent', '2': 'never-completes' };
const ARES: Record<string, AresCase> = { '0': 'Y', '1': 'N', '2': 'A', '3': 'R', '4': 'I', '5': 'U', '6': 'ds-timeout', '7': 'C', '8': 'D' };
const CHALLENGES: Record<string, ChallengeCase> = { '0': 'auto-pass', '1': 'auto-fail', '2': 'manual' };

/** The case of an account number; undefined for last digits the table does not define (an Erro, as in the sandbox). */
export function cardCase(acctNumber: string): CardCase | undefined {
  const last4 = acctNumber.slice(-4);
  if (last4 === '9999') return { enrolled: false, versions: [], method: 'absent', ares: 'N', challenge: 'auto-fail' };
  const [v, m, a, c] = [...last4] as [string, string, string, string];
  const versions = VERSIONS[v];
  const method = METHODS[m];
  const ares = ARES[a];
  const challenge = ares === 'C' ? CHALLENGES[c] : 'auto-fail';
  if (!versions || !method || !ares || !challenge) return undefined;
  return { enrolled: true, versions, method, ares, challenge };
}

export type AuthFault = 'hang' | 'http-503' | 'reset' | 'lose-answer' | 'slow';
const AMOUNT_FAULTS: Record<string, AuthFault> = { '61': 'hang', '62': 'http-503', '63': 'reset', '64': 'lose-answer', '65': 'slow' };

/** The /auth fault a purchase amount asks for, if any. */
export function amountFault(purchaseAmount: unknown): AuthFault | undefined {
  return typeof purchaseAmount === 'string' ? AMOUNT_FAULTS[purchaseAmount.slice(-2)] : undefined;
}

/** The manual challenge's one accepted code (as the sandbox ACS's, SPEC §5). */
export const CHALLENGE_CODE = '1234';
