import { sandboxAcsHandler } from '../../lib/composition/sandbox-acs.js';

/**
 * POST /sandbox/3ds/challenge — the sandbox ACS (SPEC §5), as a real issuer's ACS works in the
 * browser flow (lib/adapters/sandbox/acs-http/handler.ts).
 */
export const handler = sandboxAcsHandler;
