import type { SandboxAuthorizer } from '../../lib/adapters/sandbox/sandbox-authorizer.js';
import { sandboxAuthorizer } from '../../lib/composition/acquirers.js';

/**
 * The sandbox acquirer the payment and lifecycle functions call (lib/composition/sandbox.ts):
 * the tests run with the sandbox, its table in SANDBOX_TABLE (test/support/env.ts).
 */
if (!sandboxAuthorizer) throw new Error('SANDBOX_TABLE is not set: the tests run with the sandbox (test/support/env.ts)');
export const authorizer: SandboxAuthorizer = sandboxAuthorizer;
