import { randomUUID } from 'node:crypto';
import { epochSeconds } from '../dynamodb/dynamo.js';
import {
  THREE_DS_NOTIFICATION_PATH,
  type ChallengeRequest,
  type ChallengeVerdict,
  type StartedChallenge,
  type ThreeDsServer,
} from '../../core/ports/three-ds-server.js';
import type { AcsTransaction, SandboxAcsRepository } from './sandbox-acs-repository.js';

/**
 * The sandbox 3DS server and its directory server in one (SPEC §5): every step-up is a
 * challenge at the sandbox ACS (functions/sandbox-acs). "Sending the AReq" is writing the
 * ACS's transaction record; "receiving the RReq" is reading the result the ACS recorded
 * there. The CReq and CRes are EMV 3DS 2.2 messages (base64url JSON), nothing more.
 */
export const SANDBOX_ACS_PATH = '/sandbox/3ds/challenge';
export const SANDBOX_CHALLENGE_CODE = '1234';

export interface SandboxThreeDsOptions {
  /** Where the ACS is served (SANDBOX_ACS_BASE_URL); unset → the service's own base URL. */
  acsBaseUrl: string | undefined;
  /** How long the ACS keeps a challenge: as long as the payment keeps its JWE. */
  ttlSeconds: number;
  now: () => number;
}

export class SandboxThreeDsServer implements ThreeDsServer {
  constructor(
    private readonly acs: Pick<SandboxAcsRepository, 'put' | 'get'>,
    private readonly options: SandboxThreeDsOptions,
  ) {}

  async startChallenge(request: ChallengeRequest): Promise<StartedChallenge> {
    const transaction: AcsTransaction = {
      transactionId: randomUUID(),
      acsTransactionId: randomUUID(),
      notificationUrl: request.notificationUrl,
      amount: request.amount,
      brand: request.brand,
      expiresAt: epochSeconds(this.options.now()) + this.options.ttlSeconds,
    };
    await this.acs.put(transaction);
    const base = this.options.acsBaseUrl ?? serviceBaseOf(request.notificationUrl);
    return {
      acsUrl: `${base.replace(/\/+$/, '')}${SANDBOX_ACS_PATH}`,
      creq: encodeMessage(creqFor(transaction)),
      transactionId: transaction.transactionId,
      acsTransactionId: transaction.acsTransactionId,
    };
  }

  /** The result the ACS recorded for exactly this transaction (its RReq); the cres plays no part. */
  async challengeResult(ref: { transactionId: string; acsTransactionId: string }): Promise<ChallengeVerdict> {
    const transaction = await this.acs.get(ref.transactionId, this.options.now());
    if (!transaction?.result || transaction.acsTransactionId !== ref.acsTransactionId) return { kind: 'pending' };
    return { kind: 'answered', transStatus: transaction.result.transStatus, ...(transaction.result.eci ? { eci: transaction.result.eci } : {}) };
  }
}

export interface Creq {
  messageType: 'CReq';
  messageVersion: string;
  threeDSServerTransID: string;
  acsTransID: string;
  challengeWindowSize: string;
}

/** challengeWindowSize 05 = full screen: the page gives the challenge its whole frame. */
const creqFor = (t: AcsTransaction): Creq => ({
  messageType: 'CReq',
  messageVersion: '2.2.0',
  threeDSServerTransID: t.transactionId,
  acsTransID: t.acsTransactionId,
  challengeWindowSize: '05',
});

/** A CReq as the ACS receives it; undefined for anything else. */
export function parseCreq(value: string): Creq | undefined {
  const parsed = decodeMessage(value) as Partial<Creq> | undefined;
  const id = (v: unknown) => typeof v === 'string' && /^[0-9a-fA-F-]{36}$/.test(v);
  if (parsed?.messageType !== 'CReq' || !id(parsed.threeDSServerTransID) || !id(parsed.acsTransID)) return undefined;
  if (typeof parsed.challengeWindowSize !== 'string' || !/^0[1-5]$/.test(parsed.challengeWindowSize)) return undefined;
  return parsed as Creq;
}

/** The final CRes the ACS sends through the browser to the notification URL. */
export function buildCres(creq: Creq, transStatus: 'Y' | 'N'): string {
  return encodeMessage({
    messageType: 'CRes',
    messageVersion: creq.messageVersion,
    threeDSServerTransID: creq.threeDSServerTransID,
    acsTransID: creq.acsTransID,
    challengeCompletionInd: 'Y',
    transStatus,
  });
}

const encodeMessage = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
function decodeMessage(value: string): unknown {
  try {
    return JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

function serviceBaseOf(notificationUrl: string): string {
  if (!notificationUrl.endsWith(THREE_DS_NOTIFICATION_PATH)) return new URL(notificationUrl).origin;
  return notificationUrl.slice(0, -THREE_DS_NOTIFICATION_PATH.length);
}
