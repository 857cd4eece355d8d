import { randomUUID } from 'node:crypto';
import type { ThreeDsChallenge } from '../domain/payment.js';
import { InvalidRequestError } from '../errors.js';

/**
 * The sandbox 3DS server/ACS pair (SPEC §5). A challenge is a CReq pointing at the
 * service's own sandbox ACS page; the page records the outcome server-side (as an ACS
 * would through the RReq) and hands the browser a CRes that merely names the transaction.
 * 4.10 trusts the recorded outcome, never what the CRes claims.
 */
export const SANDBOX_ACS_PATH = '/sandbox/3ds/challenge';
export const SANDBOX_CHALLENGE_CODE = '1234';

export interface SandboxCreq {
  messageType: 'CReq';
  messageVersion: '2.2.0';
  threeDSServerTransID: string;
  acsTransID: string;
  challengeWindowSize: '05';
  /** Sandbox-only routing fields: which payment the ACS answers for. */
  orderRef: string;
  paymentRef: string;
}

export function startSandboxChallenge(baseUrl: string, orderRef: string, paymentRef: string): ThreeDsChallenge {
  const transactionId = randomUUID();
  const creq: SandboxCreq = {
    messageType: 'CReq',
    messageVersion: '2.2.0',
    threeDSServerTransID: transactionId,
    acsTransID: randomUUID(),
    challengeWindowSize: '05',
    orderRef,
    paymentRef,
  };
  return { acsUrl: `${baseUrl}${SANDBOX_ACS_PATH}`, creq: encode(creq), transactionId };
}

export function parseCreq(value: string): SandboxCreq {
  const parsed = decode(value) as Partial<SandboxCreq> | undefined;
  if (parsed?.messageType !== 'CReq' || !parsed.threeDSServerTransID || !parsed.orderRef || !parsed.paymentRef) {
    throw new InvalidRequestError('The creq is not a valid challenge request.');
  }
  return parsed as SandboxCreq;
}

export function buildCres(creq: SandboxCreq, transStatus: 'Y' | 'N'): string {
  return encode({
    messageType: 'CRes',
    messageVersion: '2.2.0',
    threeDSServerTransID: creq.threeDSServerTransID,
    acsTransID: creq.acsTransID,
    transStatus,
  });
}

/** The transaction a CRes names; 400 when it is not a CRes at all. */
export function cresTransactionId(cres: string): string {
  const parsed = decode(cres) as { messageType?: string; threeDSServerTransID?: unknown } | undefined;
  if (parsed?.messageType !== 'CRes' || typeof parsed.threeDSServerTransID !== 'string') {
    throw new InvalidRequestError('The cres is not a valid challenge result.', { errors: [{ path: 'cres', message: 'Not a CRes' }] });
  }
  return parsed.threeDSServerTransID;
}

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
function decode(value: string): unknown {
  try {
    return JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}
