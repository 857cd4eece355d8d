import type { z } from 'zod';
import { toZod } from '../schema/to-zod.js';
import { callJson, type JsonAnswer, type JsonHttpEndpoint } from '../transport/json-http.js';
import { ProcessorMaybeSentError, ProcessorNotReachedError, ProcessorRejectedRequestError } from '../transport/failures.js';
import { adyenCheckoutV71, adyenOperations } from './api-schema.js';
import type {
  AdyenModification,
  AdyenModificationRequest,
  AdyenModificationResponse,
  AdyenPaymentRequest,
  AdyenPaymentResponse,
  AdyenServiceError,
} from './types.js';

const PROCESSOR = 'adyen';
const answers = {
  payments: toZod(adyenCheckoutV71, adyenOperations.payments.answer.schema, 'answer'),
  captures: toZod(adyenCheckoutV71, adyenOperations.captures.answer.schema, 'answer'),
  cancels: toZod(adyenCheckoutV71, adyenOperations.cancels.answer.schema, 'answer'),
  refunds: toZod(adyenCheckoutV71, adyenOperations.refunds.answer.schema, 'answer'),
};
const serviceError = toZod(adyenCheckoutV71, 'ServiceError', 'answer');

/**
 * Checkout API v71 over `fetch`: X-API-Key, an Idempotency-Key on every call, the call's
 * deadline. Why not @adyen/api-library (32.0.0): its client is https-only with no base-URL
 * override (createBaseUrl maps to Adyen's own hosts, so no fake), its timeout is a socket idle
 * timeout rather than a deadline, it takes no AbortSignal, and it pins v72
 * (docs/design/processors.md "Libraries").
 */
export class AdyenCheckoutClient {
  private readonly endpoint: JsonHttpEndpoint;

  constructor(config: { baseUrl: string; apiKey: string; timeoutMs: number }) {
    this.endpoint = { processor: PROCESSOR, baseUrl: config.baseUrl, timeoutMs: config.timeoutMs, headers: { 'x-api-key': config.apiKey } };
  }

  async payments(body: AdyenPaymentRequest, idempotencyKey: string, signal: AbortSignal): Promise<AdyenPaymentResponse> {
    const answer = await callJson(
      this.endpoint,
      { method: 'POST', path: '/payments', body, idempotency: { header: 'Idempotency-Key', key: idempotencyKey } },
      signal,
    );
    return read(answer, 200, answers.payments) as AdyenPaymentResponse;
  }

  async modify(
    kind: AdyenModification,
    paymentPspReference: string,
    body: AdyenModificationRequest,
    idempotencyKey: string,
    signal: AbortSignal,
  ): Promise<AdyenModificationResponse> {
    const path = `/payments/${encodeURIComponent(paymentPspReference)}/${kind}`;
    const answer = await callJson(this.endpoint, { method: 'POST', path, body, idempotency: { header: 'Idempotency-Key', key: idempotencyKey } }, signal);
    return read(answer, 201, answers[kind]) as AdyenModificationResponse;
  }
}

/**
 * An answer, classified. 422 with errorCode 704 ("request already processed or in progress"):
 * the first request under this key is still running — in progress, maybe performed. Any other
 * error carrying `Transient-Error: true` was not processed (v71 AdditionalDataCommon:
 * "a subsequent request using the same idempotency key will be processed as if it was the first
 * request"). A 5xx without it may have been performed. Other 4xx: refused, not performed.
 */
function read(answer: JsonAnswer, success: number, schema: z.ZodType): unknown {
  if (answer.status === success) {
    const parsed = schema.safeParse(answer.body);
    if (!parsed.success) throw new ProcessorMaybeSentError(PROCESSOR, 'unparseable-answer', answer.status);
    return parsed.data;
  }
  const error = serviceError.safeParse(answer.body);
  const errorCode = error.success ? (error.data as AdyenServiceError).errorCode : undefined;
  if (errorCode === '704') throw new ProcessorMaybeSentError(PROCESSOR, 'in-progress', answer.status);
  if (answer.headers.get('transient-error') === 'true') throw new ProcessorNotReachedError(PROCESSOR, 'processor-transient-refusal');
  if (answer.status >= 500) throw new ProcessorMaybeSentError(PROCESSOR, 'server-error', answer.status);
  if (answer.status >= 200 && answer.status < 300) throw new ProcessorMaybeSentError(PROCESSOR, 'unparseable-answer', answer.status);
  throw new ProcessorRejectedRequestError(PROCESSOR, answer.status, errorCode);
}
