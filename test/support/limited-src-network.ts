import { randomInt } from 'node:crypto';
import { documentClient } from '../../lib/composition/aws.js';
import { payloadKeyVault } from '../../lib/composition/keys.js';
import { requireSandboxTable, sandboxConfig } from '../../lib/composition/config/sandbox-config.js';
import { createSandboxSrcHandler } from '../../lib/adapters/sandbox/src/http.js';
import { SandboxSrcNetwork } from '../../lib/adapters/sandbox/src/network.js';
import { SrcRateLimiter, type SrcLimits } from '../../lib/adapters/sandbox/src/rate-limits.js';
import { SrcSessionStore } from '../../lib/adapters/sandbox/src/session-store.js';
import { NetworkSigningKeys } from '../../lib/adapters/sandbox/src/signing-keys.js';
import { invoke } from './invoke.js';

/** Limits no test reaches unless it lowers one of them. */
export const GENEROUS_SRC_LIMITS: SrcLimits = {
  otpFailuresPerConsumer: { max: 1000, windowSeconds: 900 },
  lookupsPerConsumer: { max: 1000, windowSeconds: 600 },
  lookupsPerSession: 1000,
  sessionsPerClient: { max: 1000, windowSeconds: 60 },
};

/**
 * A sandbox network with limits of its own and a clock set to a window no other test uses
 * (the counters live in the shared sandbox table, keyed by window): nothing waits for time.
 * `post` calls its handler as API Gateway would, from `sourceIp`.
 */
export function limitedSrcNetwork(limits: Partial<SrcLimits>) {
  // A whole hour far in the future: every window (60, 600, 900 s) starts exactly here.
  const clock = { now: 3_999_999_600_000 + randomInt(1_000_000) * 3_600_000 }; // 3_999_999_600 s is a multiple of 3600
  const network = new SandboxSrcNetwork({
    sessions: new SrcSessionStore(documentClient, requireSandboxTable()),
    signingKeys: new NetworkSigningKeys(sandboxConfig.SANDBOX_NETWORK_SIGNING_JWKS_URL!),
    payloadKeys: payloadKeyVault,
    limiter: new SrcRateLimiter(documentClient, requireSandboxTable()),
    limits: { ...GENEROUS_SRC_LIMITS, ...limits },
    now: () => clock.now,
  });
  const handler = createSandboxSrcHandler(network);
  const post = (path: string, body: unknown, sourceIp = '198.51.100.1') => invoke(handler, { method: 'POST', path: `/sandbox/src${path}`, body, sourceIp });
  return { clock, network, post };
}
