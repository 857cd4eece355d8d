import './logging.js'; // the configured log level, before anything logs
import { createSandboxSrcHandler } from '../adapters/sandbox/src/http.js';
import { documentClient } from './aws.js';
import { requireSandboxTable, sandboxConfig } from './config/sandbox-config.js';
import { SandboxConfirmationLedger } from '../adapters/sandbox/src/confirmation-ledger.js';
import { SandboxSrcNetwork } from '../adapters/sandbox/src/network.js';
import { DEFAULT_SRC_LIMITS, SrcRateLimiter } from '../adapters/sandbox/src/rate-limits.js';
import { SrcSessionStore } from '../adapters/sandbox/src/session-store.js';
import { NetworkSigningKeys } from '../adapters/sandbox/src/signing-keys.js';
import { payloadKeyVault } from './keys.js';
import { clock } from './clock.js';

/**
 * The sandbox SRC network, or undefined when SANDBOX_NETWORK_SIGNING_JWKS_URL is not set.
 * That key is the gate: the network does not know merchants (it is "the network"), so a
 * deployment without the key has no sandbox SRC at all, and the service accepts the sandbox
 * network's signatures only for sandbox merchants anyway (4.3). Its sessions, rate limits and
 * confirmation ledger are in the sandbox table (SANDBOX_TABLE, required: this function exists
 * only where the stage serves the sandbox).
 */
const table = requireSandboxTable();
export const sandboxSrcNetwork: SandboxSrcNetwork | undefined = sandboxConfig.SANDBOX_NETWORK_SIGNING_JWKS_URL
  ? new SandboxSrcNetwork({
      sessions: new SrcSessionStore(documentClient, table),
      signingKeys: new NetworkSigningKeys(sandboxConfig.SANDBOX_NETWORK_SIGNING_JWKS_URL),
      payloadKeys: payloadKeyVault,
      limiter: new SrcRateLimiter(documentClient, table),
      limits: DEFAULT_SRC_LIMITS,
      confirmations: new SandboxConfirmationLedger(documentClient, table, Date.now),
      now: clock,
    })
  : undefined;

/** POST /sandbox/src/* — the sandbox network's API (404 everywhere without the network). */
export const sandboxSrcHandler = createSandboxSrcHandler(sandboxSrcNetwork);
