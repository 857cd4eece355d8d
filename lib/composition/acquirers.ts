import { documentClient } from './aws.js';
import { acquirerConfig } from './config/acquirer-config.js';
import { serviceConfig } from './config/service-config.js';
import type { Authorizer, AuthorizerSource } from '../core/ports/authorizer.js';
import { SandboxAuthorizer } from '../adapters/sandbox/sandbox-authorizer.js';
import { UnconfiguredAuthorizer } from '../adapters/processors/unconfigured-authorizer.js';

/**
 * One acquirer per merchant environment, shared by the payment and lifecycle functions.
 * Sandbox merchants reach the sandbox acquirer (SPEC §5); production merchants the gateway's
 * acquirer, plugged in here through the same port — until then one that refuses every call
 * (502, retryable), never the sandbox — unless PRODUCTION_ACQUIRER=sandbox says so, which only
 * a non-production stage may (lib/composition/config/acquirer-config.ts).
 */
export const authorizer = new SandboxAuthorizer(documentClient, serviceConfig.ORDERS_TABLE);
export const productionAuthorizer: Authorizer = acquirerConfig.PRODUCTION_ACQUIRER === 'sandbox' ? authorizer : new UnconfiguredAuthorizer();
export const authorizers: AuthorizerSource = {
  for: async (merchant) => (merchant?.environment === 'sandbox' ? authorizer : productionAuthorizer),
};
