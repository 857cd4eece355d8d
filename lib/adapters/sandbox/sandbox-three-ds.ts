import { randomBytes, randomUUID } from 'node:crypto';
import { epochSeconds } from '../dynamodb/dynamo.js';
import {
  THREE_DS_NOTIFICATION_PATH,
  type AuthenticationOutcome,
  type AuthenticationRequest,
  type ChallengeReference,
  type ChallengeResult,
  type CresCheck,
  type Preparation,
  type PrepareRequest,
  type RecoveryOutcome,
  type RecoveryReference,
  type ThreeDsServer,
} from '../../core/ports/three-ds-server.js';
import type { AcsTransaction, SandboxAcsRepository } from './sandbox-acs-repository.js';

/**
 * The sandbox 3DS Server and its directory server in one (SPEC §5), an adapter of the same port
 * as a production 3DS Server: every step-up is a challenge at the sandbox ACS
 * (functions/sandbox-acs). `prepare` has no 3DS Method; "sending the AReq" is writing the ACS's
 * transaction record; "receiving the RReq" is reading the result the ACS recorded there. The
 * CReq and CRes are EMV 3DS 2.2 messages (base64url JSON), nothing more. It needs neither the
 * browser's data nor a requestor profile: sandbox merchants need not onboard one.
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
  readonly requires = { browserInfo: false, requestor: false } as const;

  constructor(
    private readonly acs: Pick<SandboxAcsRepository, 'put' | 'get'>,
    private readonly options: SandboxThreeDsOptions,
  ) {}

  async prepare(_request: PrepareRequest): Promise<Preparation> {
    return { kind: 'ready', transactionId: randomUUID(), messageVersion: '2.2.0' };
  }

  /** The sandbox ACS always challenges. */
  async authenticate(request: AuthenticationRequest): Promise<AuthenticationOutcome> {
    const transaction: AcsTransaction = {
      transactionId: request.transactionId,
      acsTransactionId: randomUUID(),
      notificationUrl: request.notificationUrl,
      amount: request.amount,
      brand: request.brand,
      expiresAt: epochSeconds(this.options.now()) + this.options.ttlSeconds,
    };
    await this.acs.put(transaction);
    const base = this.options.acsBaseUrl ?? serviceBaseOf(request.notificationUrl);
    const challengeWindowSize = request.browser?.challengeWindowSize ?? request.challengeWindowSize ?? '05';
    return {
      kind: 'challenge',
      challenge: {
        transactionId: transaction.transactionId,
        acsTransactionId: transaction.acsTransactionId,
        dsTransactionId: transaction.transactionId,
        messageVersion: '2.2.0',
        brand: request.brand,
      },
      acsUrl: `${base.replace(/\/+$/, '')}${SANDBOX_ACS_PATH}`,
      creq: encodeMessage(creqFor(transaction, challengeWindowSize)),
    };
  }

  /** The result the ACS recorded for exactly this transaction (its RReq); the cres plays no part. */
  async challengeResult(ref: ChallengeReference): Promise<ChallengeResult> {
    const transaction = await this.acs.get(ref.transactionId, this.options.now());
    if (!transaction) return { kind: 'expired' };
    if (!transaction.result || transaction.acsTransactionId !== ref.acsTransactionId) return { kind: 'pending' };
    return resultOf(transaction, ref);
  }

  async recover(ref: RecoveryReference): Promise<RecoveryOutcome> {
    const transaction = await this.acs.get(ref.transactionId, this.options.now());
    if (!transaction) return { kind: 'spent', reason: 'unknown-transaction' };
    if (!transaction.result) return { kind: 'spent', reason: 'no-result' };
    const result = resultOf(transaction, { ...ref, acsTransactionId: transaction.acsTransactionId });
    return { kind: 'result', result };
  }

  checkCres(cres: string, challenge: ChallengeReference): CresCheck {
    const parsed = decodeMessage(cres) as { messageType?: unknown; threeDSServerTransID?: unknown; acsTransID?: unknown; transStatus?: unknown } | undefined;
    if (parsed?.messageType !== 'CRes' || typeof parsed.transStatus !== 'string') return { kind: 'malformed' };
    if (parsed.threeDSServerTransID !== challenge.transactionId || parsed.acsTransID !== challenge.acsTransactionId) return { kind: 'other-challenge' };
    return { kind: 'matches', transStatus: parsed.transStatus };
  }
}

/** The sandbox's RReq: Y with a made-up authentication value and the ECI the ACS recorded, or N. */
function resultOf(transaction: AcsTransaction, ref: ChallengeReference | (RecoveryReference & { acsTransactionId: string })) {
  const result = transaction.result!;
  if (result.transStatus !== 'Y') return { kind: 'failed' as const, transStatus: 'N' as const, transStatusReason: '01' };
  return {
    kind: 'authenticated' as const,
    authentication: {
      transStatus: 'Y' as const,
      // A sandbox CAVV (20 random bytes): it authorizes nothing anywhere but at the sandbox acquirer.
      authenticationValue: randomBytes(20).toString('base64'),
      eci: result.eci ?? (ref.brand === 'MASTERCARD' ? '02' : '05'),
      transactionId: transaction.transactionId,
      dsTransactionId: transaction.transactionId,
      acsTransactionId: transaction.acsTransactionId,
      messageVersion: '2.2.0' as const,
    },
  };
}

export interface Creq {
  messageType: 'CReq';
  messageVersion: string;
  threeDSServerTransID: string;
  acsTransID: string;
  challengeWindowSize: string;
}

/** The window size the page chose (05, full screen, when none was said). */
const creqFor = (t: AcsTransaction, challengeWindowSize: string): Creq => ({
  messageType: 'CReq',
  messageVersion: '2.2.0',
  threeDSServerTransID: t.transactionId,
  acsTransID: t.acsTransactionId,
  challengeWindowSize,
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
