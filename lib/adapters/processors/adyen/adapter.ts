import type {
  AuthorizationOutcome,
  AuthorizationRequest,
  Authorizer,
  ModificationRequest,
  RecoveryAnswer,
  RecoveryQuery,
} from '../../../core/ports/authorizer.js';
import { operationKey } from '../transport/base-url.js';
import { ProcessorMaybeSentError } from '../transport/failures.js';
import { AdyenCheckoutClient } from './client.js';
import type { AdyenAdapterConfig } from './config.js';
import type { AdyenNotes, ReferenceLocation } from './notes.js';
import { reportedOutcome } from './notifications/reported-outcome.js';
import { outcomeOfModification, outcomeOfPayment } from './outcome-of.js';
import { toPaymentRequest } from './to-payment-request.js';
import { ADYEN_MODIFICATION, toModificationRequest } from './to-modification-request.js';

/**
 * Adyen behind the authorizer port. Authorizations answer at once (or Received/Pending);
 * captures, cancels and refunds answer 201 "received" and are settled by notifications, so
 * `modify` returns `pending`. Beside each request its reference is recorded with where its
 * payment lives (`notes`), so that Adyen's notification about it can be applied.
 *
 * Recovery: first what Adyen's notifications already told (the inbox); then, for an operation
 * Adyen has not acknowledged, Adyen's documented way — the same request again under the same
 * Idempotency-Key returns the first answer without performing anything twice
 * (docs.adyen.com/development-resources/api-idempotency); while the first is still running
 * Adyen answers 704 → `in-progress`. An acknowledged operation is never replayed: Adyen has it,
 * its notification decides (`in-progress` until then). Without the original request (an
 * authorization whose credential is gone) and without a notification → `needs-request`.
 */
export class AdyenProcessor implements Authorizer {
  readonly name = 'adyen' as const;
  private readonly client: AdyenCheckoutClient;

  constructor(
    private readonly config: AdyenAdapterConfig,
    private readonly notes?: AdyenNotes,
  ) {
    this.client = new AdyenCheckoutClient(config);
  }

  async authorize(request: AuthorizationRequest, signal: AbortSignal): Promise<AuthorizationOutcome> {
    const body = toPaymentRequest(request, this.config);
    const recorded = this.record(request.idempotencyKey, { orderRef: request.orderRef, paymentRef: request.idempotencyKey, operation: 'AUTHORIZE' }, signal);
    const answer = await this.client.payments(body, operationKey('AUTHORIZE', request.idempotencyKey), signal);
    await recorded;
    return outcomeOfPayment(answer, body);
  }

  async modify(request: ModificationRequest, signal: AbortSignal): Promise<AuthorizationOutcome> {
    const body = toModificationRequest(request, this.config.merchantAccount);
    const recorded = this.record(request.idempotencyKey, { orderRef: request.orderRef, paymentRef: request.paymentRef, operation: request.kind }, signal);
    const answer = await this.client.modify(
      ADYEN_MODIFICATION[request.kind],
      request.processorReference,
      body,
      operationKey(request.kind, request.idempotencyKey),
      signal,
    );
    await recorded;
    return outcomeOfModification(answer, {
      reference: body.reference,
      paymentPspReference: request.processorReference,
      ...(body.amount ? { amount: body.amount } : {}),
    });
  }

  async recover(query: RecoveryQuery, signal: AbortSignal): Promise<RecoveryAnswer> {
    const reference = query.operation === 'AUTHORIZE' ? query.reference : query.request.idempotencyKey;
    if (this.notes) {
      const told = reportedOutcome(await this.notes.reported(reference, signal), query.operation === 'AUTHORIZE' ? 'AUTHORIZE' : query.request.kind);
      if (told) return { kind: 'known', outcome: told };
    }
    if (query.acknowledged) return { kind: 'in-progress' };
    if (query.operation === 'AUTHORIZE' && !query.request) return { kind: 'needs-request' };
    try {
      const outcome = query.operation === 'AUTHORIZE' ? await this.authorize(query.request!, signal) : await this.modify(query.request, signal);
      return { kind: 'known', outcome };
    } catch (error) {
      if (error instanceof ProcessorMaybeSentError && error.reason === 'in-progress') return { kind: 'in-progress' };
      throw error;
    }
  }

  /**
   * Where the reference lives, written beside the request (not before it: one round trip less on
   * every call). A notification that arrives before the location does waits in the inbox, where
   * recovery reads it by reference; the location only serves notifications that arrive after the
   * request has been answered, by when it is written. A failed write must not turn an answer the
   * processor gave into an error (the store's failure is counted as a dependency error): the
   * operation's report then waits for the next recovery of it.
   */
  private async record(reference: string, location: ReferenceLocation, signal: AbortSignal): Promise<void> {
    if (!this.notes) return;
    await this.notes.recordReference(reference, location, signal).catch(() => undefined);
  }
}
