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
import { checkCres } from './cres-check.js';
import { REQUIRES } from './requires.js';
import type { ThreeDSecureIoOptions, ThreeDSecureIoServer } from './server.js';

/**
 * The 3dsecure.io adapter (./server.ts) as the payment functions hold it: `load` imports it with
 * import() at the first call that talks to the 3DS Server — a production step-up — and it is built
 * once. The client, the AReq builder, the AReq / ARes / RReq / CRD tables and the ISO 4217 list are
 * not read at every cold start of 4.3, 4.4 and 4.10 (docs/benchmarks.md "Cold start"). `requires`
 * and `checkCres` answer without it (the CRes tables are small, and a cold 4.10 may check a CRes
 * before calling anything). A load that fails is `not-sent` (nothing left) and is tried again by
 * the next call.
 *
 * The composition says where the adapter comes from (lib/composition/three-ds-server.ts): an
 * import() here would make ./server.ts a chunk of its own, and the modules it shares with the
 * handler a set of chunks of their own, read at every cold start (docs/benchmarks.md "Code splitting").
 */
export type ThreeDSecureIoServerLoader = () => Promise<typeof ThreeDSecureIoServer>;

export function threeDSecureIoServerOnFirstUse(options: ThreeDSecureIoOptions, load: ThreeDSecureIoServerLoader): ThreeDsServer {
  let server: Promise<ThreeDSecureIoServer> | undefined;
  const loaded = (endpoint: string): Promise<ThreeDSecureIoServer> => {
    if (!server) {
      const loading = load().then((Server) => new Server(options));
      server = loading;
      loading.catch(() => {
        if (server === loading) server = undefined;
      });
    }
    return server.catch((cause: unknown) => {
      throw new ThreeDsServerCallError('not-sent', endpoint, { reason: 'the 3DS Server adapter could not be loaded', cause });
    });
  };
  return {
    requires: REQUIRES,
    prepare: async (request: PrepareRequest, signal: AbortSignal): Promise<Preparation> => (await loaded('/preauth')).prepare(request, signal),
    authenticate: async (request: AuthenticationRequest, signal: AbortSignal): Promise<AuthenticationOutcome> =>
      (await loaded('/auth')).authenticate(request, signal),
    challengeResult: async (challenge: ChallengeReference, signal: AbortSignal): Promise<ChallengeResult> =>
      (await loaded('/postauth')).challengeResult(challenge, signal),
    recover: async (attempt: RecoveryReference, signal: AbortSignal): Promise<RecoveryOutcome> => (await loaded('/postauth')).recover(attempt, signal),
    checkCres: (cres: string, challenge: ChallengeReference): CresCheck => checkCres(cres, challenge),
  };
}
