import { documentClient } from './aws.js';
import { sandboxConfig } from './config/sandbox-config.js';
import { SandboxAcsRepository } from '../adapters/sandbox/sandbox-acs-repository.js';
import { SandboxAuthorizer } from '../adapters/sandbox/sandbox-authorizer.js';

/**
 * The sandbox's state, in its own table beside the product's (SANDBOX_TABLE, infra/tables.cjs),
 * where this stage serves the sandbox; undefined where it does not (no table, no role reaching
 * one): the payment functions then have no sandbox acquirer and no sandbox ACS
 * (lib/composition/acquirer-slots.ts, payments.ts).
 */
export const sandboxTable: string | undefined = sandboxConfig.SANDBOX_TABLE;

/** The sandbox acquirer of SPEC §5: its operations are `SANDBOX_ACQUIRER#…` items of the sandbox table. */
export const sandboxAuthorizer: SandboxAuthorizer | undefined = sandboxTable ? new SandboxAuthorizer(documentClient, sandboxTable) : undefined;

/** The sandbox ACS's transactions (`SANDBOX_ACS#…`): written by the payment functions that start a challenge, answered by the ACS. */
export const sandboxAcsRepository: SandboxAcsRepository | undefined = sandboxTable ? new SandboxAcsRepository(documentClient, sandboxTable) : undefined;
