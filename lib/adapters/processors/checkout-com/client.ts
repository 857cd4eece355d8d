import type { z } from 'zod';
import { toZod } from '../schema/to-zod.js';
import { callJson, type JsonAnswer, type JsonHttpEndpoint } from '../transport/json-http.js';
import { ProcessorMaybeSentError, ProcessorRejectedRequestError } from '../transport/failures.js';
import { checkoutComNas } from './api-schema.js';
import type { CkoAction, CkoActionAccepted, CkoActionRequest, CkoPaymentAction, CkoPaymentAnswer, CkoPaymentDetails, CkoPaymentRequest } from './types.js';

const PROCESSOR = 'checkout_com';
const schema = (name: string) => toZod(checkoutComNas, name, 'answer');
const answers = {
  processed: schema('PaymentResponse'),
  accepted: schema('PaymentAcceptedResponse'),
  captures: schema('CaptureAcceptedResponse'),
  voids: schema('VoidAcceptedResponse'),
  refunds: schema('RefundAcceptedResponse'),
  list: schema('PaymentListResponse'),
  actions: schema('PaymentActionsResponse'),
  error: schema('ValidationError'),
};

/**
 * Checkout.com's payments API over `fetch`: `Authorization: Bearer <secret key>`, a
 * Cko-Idempotency-Key on every POST, the call's deadline. Why not checkout-sdk-node (4.1.0): its
 * fetch path passes `timeout` as an option fetch ignores and takes no AbortSignal, it rethrows
 * transport errors as `new Error(...)` without the cause (so refused and reset look alike), and
 * it imports axios at load (docs/design/processors.md "Libraries").
 */
export class CheckoutComClient {
  private readonly endpoint: JsonHttpEndpoint;

  constructor(config: { baseUrl: string; secretKey: string; timeoutMs: number }) {
    this.endpoint = { processor: PROCESSOR, baseUrl: config.baseUrl, timeoutMs: config.timeoutMs, headers: { authorization: `Bearer ${config.secretKey}` } };
  }

  async requestPayment(body: CkoPaymentRequest, idempotencyKey: string, signal: AbortSignal): Promise<{ status: 201 | 202; answer: CkoPaymentAnswer }> {
    const answer = await callJson(
      this.endpoint,
      { method: 'POST', path: '/payments', body, idempotency: { header: 'Cko-Idempotency-Key', key: idempotencyKey } },
      signal,
    );
    if (answer.status === 201) return { status: 201, answer: parse(answer, answers.processed) as CkoPaymentAnswer };
    if (answer.status === 202) return { status: 202, answer: parse(answer, answers.accepted) as CkoPaymentAnswer };
    throw failure(answer);
  }

  async action(kind: CkoAction, paymentId: string, body: CkoActionRequest, idempotencyKey: string, signal: AbortSignal): Promise<CkoActionAccepted> {
    const path = `/payments/${encodeURIComponent(paymentId)}/${kind}`;
    const answer = await callJson(this.endpoint, { method: 'POST', path, body, idempotency: { header: 'Cko-Idempotency-Key', key: idempotencyKey } }, signal);
    if (answer.status === 202) return parse(answer, answers[kind]) as CkoActionAccepted;
    throw failure(answer);
  }

  /** GET /payments?reference= — the payments carrying our reference, newest first. */
  async paymentsByReference(reference: string, signal: AbortSignal): Promise<CkoPaymentDetails[]> {
    const answer = await callJson(this.endpoint, { method: 'GET', path: `/payments?reference=${encodeURIComponent(reference)}&limit=10` }, signal);
    if (answer.status === 200) return (parse(answer, answers.list) as { data: CkoPaymentDetails[] }).data;
    throw failure(answer);
  }

  /** GET /payments/{id}/actions — every action processed on the payment. */
  async actions(paymentId: string, signal: AbortSignal): Promise<CkoPaymentAction[]> {
    const answer = await callJson(this.endpoint, { method: 'GET', path: `/payments/${encodeURIComponent(paymentId)}/actions` }, signal);
    if (answer.status === 200) return parse(answer, answers.actions) as CkoPaymentAction[];
    throw failure(answer);
  }
}

function parse(answer: JsonAnswer, schema: z.ZodType): unknown {
  const parsed = schema.safeParse(answer.body);
  if (!parsed.success) throw new ProcessorMaybeSentError(PROCESSOR, 'unparseable-answer', answer.status);
  return parsed.data;
}

/**
 * A non-success answer, classified. 429: "concurrent requests with the same idempotency key …
 * the other requests will return a 429" (checkout.com/docs/payments/manage-payments/idempotency)
 * — the first may be running: in progress. 5xx: maybe performed. Other 4xx: refused, not
 * performed (Checkout.com saves no idempotent result for them).
 */
function failure(answer: JsonAnswer): Error {
  if (answer.status === 429) return new ProcessorMaybeSentError(PROCESSOR, 'in-progress', 429);
  if (answer.status >= 500) return new ProcessorMaybeSentError(PROCESSOR, 'server-error', answer.status);
  if (answer.status < 400) return new ProcessorMaybeSentError(PROCESSOR, 'unparseable-answer', answer.status);
  const error = answers.error.safeParse(answer.body);
  const codes = error.success ? (error.data as { error_codes?: string[] }).error_codes : undefined;
  return new ProcessorRejectedRequestError(PROCESSOR, answer.status, codes?.join(','));
}
