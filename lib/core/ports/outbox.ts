import type { OutboxEvent } from '../events/payment-event.js';
import type { OutboxConfirmation } from '../network/confirmation.js';

/**
 * What a payment's write announces with it (the transactional outbox): the merchant's webhook
 * events and the card network's confirmations. A store keeps them with the payment in the same
 * write; the outbox worker (lib/core/outbox/) moves them out and delivers each.
 */
export type OutboxEntry = OutboxEvent | OutboxConfirmation;
