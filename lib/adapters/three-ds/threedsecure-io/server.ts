import type {
  AuthenticationOutcome,
  AuthenticationRequest,
  ChallengeReference,
  ChallengeResult,
  CresCheck,
  Preparation,
  PrepareRequest,
  RecoveryOutcome,
  RecoveryReference,
  ThreeDsServer,
} from '../../../core/ports/three-ds-server.js';
import { ThreeDsServerCallError } from '../../../core/ports/three-ds-server-error.js';
import { aresOutcome } from './ares-outcome.js';
import { buildAReq, type CompleteAuthenticationRequest } from './areq.js';
import { ThreeDSecureIoClient, type ClientOptions, type Crd } from './client.js';
import { checkCres } from './cres-check.js';
import { DIRECTORY_SERVER } from './ds.js';
import { chooseMessageVersion } from './message-version.js';
import { METHOD_NOTIFICATION_URL_MAX, methodData } from './method.js';
import { REQUIRES } from './requires.js';
import { rreqResult } from './rreq-result.js';

export interface ThreeDSecureIoOptions extends ClientOptions {
  /** Lets 2.3.1 AReqs name loopback HTTP endpoints (a local demo against the fake); never in production. */
  loopbackHttpAllowed?: boolean;
}

/**
 * The ThreeDsServer port (lib/core/ports/three-ds-server.ts) over 3dsecure.io's API (the reference adapter, SPEC 4.17).
 *
 * Lost answers: the API offers no way to fetch an ARes again — its endpoints are /preauth,
 * /auth and /postauth (getting-started.rst), and /postauth returns the RReq of a challenge
 * only (postauth.rst; "No RReq has been received", errorCode 305, before it arrives). So
 * `recover` asks /postauth for the transaction: an RReq is the attempt's result (it can only
 * exist for a challenge whose ACS reported, e.g. its CReq timeout); anything else means the
 * ARes is gone for good and the attempt is spent. Re-sending the AReq is never an option: it
 * would be a second authentication of the same transaction at the directory server and ACS.
 */
export class ThreeDSecureIoServer implements ThreeDsServer {
  /** The AReq of a browser authentication needs both (areq tables: required with deviceChannel 02). */
  readonly requires = REQUIRES;
  private readonly client: ThreeDSecureIoClient;

  constructor(private readonly options: ThreeDSecureIoOptions) {
    this.client = new ThreeDSecureIoClient(options);
  }

  async prepare(request: PrepareRequest, signal: AbortSignal): Promise<Preparation> {
    if (request.methodNotificationUrl.length > METHOD_NOTIFICATION_URL_MAX) {
      throw new ThreeDsServerCallError('not-sent', '/preauth', {
        reason: `the 3DS Method notification URL is longer than ${METHOD_NOTIFICATION_URL_MAX} characters`,
      });
    }
    let crd: Crd;
    try {
      crd = await this.client.preauth({ acctNumber: request.account.number, ds: DIRECTORY_SERVER[request.brand] }, signal);
    } catch (error) {
      // preauth.rst "BIN not enrolled error": Erro 305 is the only 305 this endpoint answers.
      if (error instanceof ThreeDsServerCallError && error.kind === 'erro' && error.erro?.errorCode === '305') return { kind: 'not-enrolled' };
      throw error;
    }
    const messageVersion = chooseMessageVersion(crd);
    if (!messageVersion) return { kind: 'unsupported-version', acsVersions: `${crd.acsStartProtocolVersion}–${crd.acsEndProtocolVersion}` };
    return {
      kind: 'ready',
      transactionId: crd.threeDSServerTransID,
      messageVersion,
      ...(crd.threeDSMethodURL
        ? { method: { url: crd.threeDSMethodURL, threeDSMethodData: methodData(crd.threeDSServerTransID, request.methodNotificationUrl) } }
        : {}),
    };
  }

  async authenticate(request: AuthenticationRequest, signal: AbortSignal): Promise<AuthenticationOutcome> {
    const areq = buildAReqOrRefuse(request, this.options.loopbackHttpAllowed ?? false);
    const ares = await this.client.auth(areq, signal);
    if (ares.messageVersion !== request.messageVersion)
      throw new ThreeDsServerCallError('maybe-sent', '/auth', { status: 200, reason: 'an ARes of another version' });
    return aresOutcome(ares, request);
  }

  async challengeResult(challenge: ChallengeReference, signal: AbortSignal): Promise<ChallengeResult> {
    try {
      const rreq = await this.client.postauth(challenge.transactionId, signal);
      if (rreq.acsTransID !== challenge.acsTransactionId)
        throw new ThreeDsServerCallError('maybe-sent', '/postauth', { status: 200, reason: 'an RReq of another ACS transaction' });
      return rreqResult(rreq, challenge.brand);
    } catch (error) {
      const waiting = noResult(error);
      if (waiting === 'no-result') return { kind: 'pending' };
      if (waiting === 'unknown-transaction') return { kind: 'expired' };
      throw error;
    }
  }

  async recover(attempt: RecoveryReference, signal: AbortSignal): Promise<RecoveryOutcome> {
    try {
      const rreq = await this.client.postauth(attempt.transactionId, signal);
      return { kind: 'result', result: rreqResult(rreq, attempt.brand) };
    } catch (error) {
      const reason = noResult(error);
      if (reason) return { kind: 'spent', reason };
      throw error;
    }
  }

  checkCres(cres: string, challenge: ChallengeReference): CresCheck {
    return checkCres(cres, challenge);
  }
}

/**
 * The AReq, or a `not-sent` refusal naming what is missing or cannot be expressed (no browser
 * data, no requestor profile, a currency without an ISO 4217 number): nothing leaves then.
 */
function buildAReqOrRefuse(request: AuthenticationRequest, loopbackHttpAllowed: boolean) {
  if (!request.browser || !request.requestor)
    throw new ThreeDsServerCallError('not-sent', '/auth', { reason: `the AReq lacks ${request.browser ? 'the requestor profile' : 'the browser data'}` });
  try {
    return buildAReq(request as CompleteAuthenticationRequest, { loopbackHttpAllowed });
  } catch (error) {
    if (error instanceof ThreeDsServerCallError) throw error;
    throw new ThreeDsServerCallError('not-sent', '/auth', { reason: `the AReq cannot be built: ${(error as Error).message}` });
  }
}

/**
 * postauth.rst and decoupled_authentication.rst: Erro 305 "No RReq has been received" (not
 * yet, or never: a frictionless ARes has none) and 203 "Unknown threeDSServerTransID" (the
 * result is kept 300 s after it arrives, or the transaction never reached the server).
 */
function noResult(error: unknown): 'no-result' | 'unknown-transaction' | undefined {
  if (!(error instanceof ThreeDsServerCallError) || error.kind !== 'erro' || error.endpoint !== '/postauth') return undefined;
  if (error.erro?.errorCode === '305') return 'no-result';
  if (error.erro?.errorCode === '203') return 'unknown-transaction';
  return undefined;
}
