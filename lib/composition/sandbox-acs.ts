import { documentClient } from './aws.js';
import { serviceConfig } from './config/service-config.js';
import { SandboxAcsRepository } from '../adapters/sandbox/sandbox-acs-repository.js';

/** The sandbox ACS's transaction records (lib/adapters/sandbox/sandbox-three-ds.ts), in the orders table. */
export const sandboxAcsRepository = new SandboxAcsRepository(documentClient, serviceConfig.ORDERS_TABLE);
