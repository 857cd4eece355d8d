import './logging.js'; // the configured log level, before anything logs
import { createSandboxAcsHandler } from '../adapters/sandbox/acs-http/handler.js';
import { logger } from '../core/ports/logger.js';
import { documentClient } from './aws.js';
import { requireSandboxTable } from './config/sandbox-config.js';
import { SandboxAcsRepository } from '../adapters/sandbox/sandbox-acs-repository.js';
import { clock } from './clock.js';

/**
 * The sandbox ACS's challenge pages (POST /sandbox/3ds/challenge), an issuer's ACS played. Its
 * transactions (lib/adapters/sandbox/sandbox-three-ds.ts) are in the sandbox table, which a
 * stage serving the sandbox has: without SANDBOX_TABLE the cold start fails, naming it.
 */
export const sandboxAcsHandler = createSandboxAcsHandler({
  transactions: new SandboxAcsRepository(documentClient, requireSandboxTable()),
  logger,
  now: clock,
});
