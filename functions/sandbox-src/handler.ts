import { sandboxSrcHandler } from '../../lib/composition/sandbox-src.js';

/**
 * POST /sandbox/src/* — the sandbox Click to Pay network (docs/sandbox-src-contract.md).
 * Public (no bearer token); 404 everywhere unless the sandbox network signing key is configured.
 */
export const handler = sandboxSrcHandler;
