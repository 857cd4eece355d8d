import { randomBytes, randomUUID } from 'node:crypto';
import type {
  AuthenticationOutcome,
  AuthenticationRequest,
  ChallengeReference,
  ChallengeResult,
  CresCheck,
  Preparation,
  RecoveryOutcome,
  RecoveryReference,
  ThreeDsServer,
} from '../../../lib/core/ports/three-ds-server.js';

/** A challenge the scripted server started: the AReq it answered, and what the page was told. */
export interface StartedChallenge extends AuthenticationRequest {
  transactionId: string;
  acsTransactionId: string;
  acsUrl: string;
  creq: string;
}

/**
 * A 3DS Server in the sandbox's manner (lib/adapters/sandbox/sandbox-three-ds.ts): no 3DS Method,
 * every step-up is a challenge; the verdict is the RReq the ACS sent the server (set by the test
 * with `answer`), never what the browser's CRes says. Records every challenge it started, and
 * needs neither browser data nor a requestor profile.
 */
export class ScriptedThreeDsServer implements ThreeDsServer {
  readonly requires = { browserInfo: false, requestor: false } as const;
  readonly started: StartedChallenge[] = [];
  private readonly verdicts = new Map<string, { acsTransactionId: string; transStatus: string; eci?: string }>();
  /** Set to make the next call fail (the 3DS Server is down). */
  failNext: Error | undefined;

  async prepare(): Promise<Preparation> {
    this.failIfAsked();
    return { kind: 'ready', transactionId: randomUUID(), messageVersion: '2.2.0' };
  }

  async authenticate(request: AuthenticationRequest): Promise<AuthenticationOutcome> {
    this.failIfAsked();
    const acsTransactionId = randomUUID();
    const creq = Buffer.from(
      JSON.stringify({ messageType: 'CReq', messageVersion: '2.2.0', threeDSServerTransID: request.transactionId, acsTransID: acsTransactionId }),
    ).toString('base64url');
    const started = { ...request, acsTransactionId, acsUrl: 'https://acs.example/challenge', creq };
    this.started.push(started);
    return {
      kind: 'challenge',
      challenge: {
        transactionId: request.transactionId,
        acsTransactionId,
        dsTransactionId: request.transactionId,
        messageVersion: '2.2.0',
        brand: request.brand,
      },
      acsUrl: started.acsUrl,
      creq,
    };
  }

  async challengeResult(ref: ChallengeReference): Promise<ChallengeResult> {
    this.failIfAsked();
    const verdict = this.verdicts.get(ref.transactionId);
    if (!verdict || verdict.acsTransactionId !== ref.acsTransactionId) return { kind: 'pending' };
    return resultOf(ref, verdict);
  }

  async recover(ref: RecoveryReference): Promise<RecoveryOutcome> {
    this.failIfAsked();
    const verdict = this.verdicts.get(ref.transactionId);
    if (!verdict) return { kind: 'spent', reason: 'no-result' };
    return { kind: 'result', result: resultOf({ ...ref, acsTransactionId: verdict.acsTransactionId }, verdict) };
  }

  checkCres(cres: string, challenge: ChallengeReference): CresCheck {
    let parsed: { messageType?: unknown; threeDSServerTransID?: unknown; acsTransID?: unknown; transStatus?: unknown };
    try {
      parsed = JSON.parse(Buffer.from(cres, 'base64url').toString('utf8'));
    } catch {
      return { kind: 'malformed' };
    }
    if (parsed?.messageType !== 'CRes' || typeof parsed.transStatus !== 'string') return { kind: 'malformed' };
    if (parsed.threeDSServerTransID !== challenge.transactionId || parsed.acsTransID !== challenge.acsTransactionId) return { kind: 'other-challenge' };
    return { kind: 'matches', transStatus: parsed.transStatus };
  }

  /** The ACS's result for a challenge (its RReq): `Y` authenticated, anything else not. */
  answer(challenge: Pick<StartedChallenge, 'transactionId' | 'acsTransactionId'>, transStatus: string, eci?: string): void {
    this.verdicts.set(challenge.transactionId, { acsTransactionId: challenge.acsTransactionId, transStatus, ...(eci ? { eci } : {}) });
  }

  private failIfAsked(): void {
    const error = this.failNext;
    this.failNext = undefined;
    if (error) throw error;
  }
}

function resultOf(
  ref: ChallengeReference,
  verdict: { acsTransactionId: string; transStatus: string; eci?: string },
): Exclude<ChallengeResult, { kind: 'pending' } | { kind: 'expired' }> {
  if (verdict.transStatus !== 'Y') return { kind: 'failed', transStatus: 'N', transStatusReason: '01' };
  return {
    kind: 'authenticated',
    authentication: {
      transStatus: 'Y',
      authenticationValue: randomBytes(20).toString('base64'),
      eci: verdict.eci ?? (ref.brand === 'MASTERCARD' ? '02' : '05'),
      transactionId: ref.transactionId,
      dsTransactionId: ref.transactionId,
      acsTransactionId: verdict.acsTransactionId,
      messageVersion: '2.2.0',
    },
  };
}

/** The final CRes the ACS sends through the browser, base64url JSON as 4.10 receives it. */
export function cresFor(challenge: Pick<StartedChallenge, 'transactionId' | 'acsTransactionId'>, transStatus: string): string {
  return Buffer.from(
    JSON.stringify({
      messageType: 'CRes',
      messageVersion: '2.2.0',
      threeDSServerTransID: challenge.transactionId,
      acsTransID: challenge.acsTransactionId,
      transStatus,
    }),
  ).toString('base64url');
}
