import type { OutboxEvent } from '../events/payment-event.js';
import type { OutboxConfirmation } from '../network/confirmation.js';
import type { OutboxRecovery } from '../payments/recovery-entry.js';

/**
 * What a payment's write announces with it (the transactional outbox): the merchant's webhook
 * events, the card network's confirmations, and the processor recoveries of what it left pending. A store keeps them with the payment in the same
 * write; the outbox worker (lib/core/outbox/) moves them out and delivers each.
 */
export type OutboxEntry = OutboxEvent | OutboxConfirmation | OutboxRecovery;
