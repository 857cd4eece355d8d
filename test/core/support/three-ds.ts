import { randomUUID } from 'node:crypto';
import type { ChallengeRef, ChallengeRequest, ChallengeVerdict, StartedChallenge, ThreeDsServer } from '../../../lib/core/ports/three-ds-server.js';

/**
 * A 3DS server in the sandbox's manner (lib/adapters/sandbox/sandbox-three-ds.ts): every step-up
 * is a challenge; the verdict is what the ACS told the server (set by the test with `answer`),
 * never what the browser's cres says. Records every challenge it started.
 */
export class ScriptedThreeDsServer implements ThreeDsServer {
  readonly started: (ChallengeRequest & StartedChallenge)[] = [];
  private readonly verdicts = new Map<string, { acsTransactionId: string; transStatus: string; eci?: string }>();
  /** Set to make the next startChallenge fail (the 3DS server is down). */
  failNext: Error | undefined;

  async startChallenge(request: ChallengeRequest): Promise<StartedChallenge> {
    if (this.failNext) {
      const error = this.failNext;
      this.failNext = undefined;
      throw error;
    }
    const transactionId = randomUUID();
    const acsTransactionId = randomUUID();
    const challenge = {
      acsUrl: 'https://acs.example/challenge',
      creq: Buffer.from(JSON.stringify({ messageType: 'CReq', threeDSServerTransID: transactionId, acsTransID: acsTransactionId })).toString('base64url'),
      transactionId,
      acsTransactionId,
    };
    this.started.push({ ...request, ...challenge });
    return challenge;
  }

  async challengeResult(ref: ChallengeRef): Promise<ChallengeVerdict> {
    const verdict = this.verdicts.get(ref.transactionId);
    if (!verdict || verdict.acsTransactionId !== ref.acsTransactionId) return { kind: 'pending' };
    return { kind: 'answered', transStatus: verdict.transStatus, ...(verdict.eci ? { eci: verdict.eci } : {}) };
  }

  /** The ACS's result for a challenge (its RReq): `Y` authenticated, anything else not. */
  answer(challenge: Pick<StartedChallenge, 'transactionId' | 'acsTransactionId'>, transStatus: string, eci?: string): void {
    this.verdicts.set(challenge.transactionId, { acsTransactionId: challenge.acsTransactionId, transStatus, ...(eci ? { eci } : {}) });
  }
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
