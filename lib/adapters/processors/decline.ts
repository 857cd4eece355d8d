/**
 * The decline vocabulary lives in the core (lib/core/domain/decline.ts): every authorizer maps
 * its own codes to it. Re-exported here for the processor adapters' mapping tables.
 */
export { DECLINE_REASONS, decline, type Decline, type DeclineReason } from '../../core/domain/decline.js';
