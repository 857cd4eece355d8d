import { documentClient } from '../aws/clients.js';
import { serviceConfig } from '../config/service-config.js';
import type { MerchantEnvironment } from '../domain/merchant.js';
import type { Authorizer } from '../payments/authorizer.js';
import { SandboxAuthorizer } from '../sandbox/sandbox-authorizer.js';
import { UnconfiguredAuthorizer } from '../payments/unconfigured-authorizer.js';

/**
 * One acquirer per merchant environment, shared by the payment and lifecycle functions.
 * Sandbox merchants reach the sandbox acquirer (SPEC §5); production merchants the gateway's
 * acquirer, plugged in here through the same port — until then one that refuses every call
 * (502, retryable), never the sandbox.
 */
export const authorizer = new SandboxAuthorizer(documentClient, serviceConfig.ORDERS_TABLE);
export const productionAuthorizer = new UnconfiguredAuthorizer();
export const authorizers: Record<MerchantEnvironment, Authorizer> = { sandbox: authorizer, production: productionAuthorizer };
