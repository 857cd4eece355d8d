import './logging.js'; // the configured log level, before anything logs
import { createSandboxAcsHandler } from '../adapters/sandbox/acs-http/handler.js';
import { logger } from '../core/ports/logger.js';
import { documentClient } from './aws.js';
import { serviceConfig } from './config/service-config.js';
import { SandboxAcsRepository } from '../adapters/sandbox/sandbox-acs-repository.js';

/** The sandbox ACS's transaction records (lib/adapters/sandbox/sandbox-three-ds.ts), in the orders table. */
export const sandboxAcsRepository = new SandboxAcsRepository(documentClient, serviceConfig.ORDERS_TABLE);

/** The sandbox ACS's challenge pages (POST /sandbox/3ds/challenge), an issuer's ACS played. */
export const sandboxAcsHandler = createSandboxAcsHandler({ transactions: sandboxAcsRepository, logger, now: Date.now });
