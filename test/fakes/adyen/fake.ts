import { randomBytes } from 'node:crypto';
import { adyenCheckoutV71 } from '../../../lib/adapters/processors/adyen/api-schema.js';
import { startFaultServer, type FakeAnswer, type FakeRequest, type FaultServer } from '../fault-server.js';
import { violations } from '../schema-check.js';
import { authorisationFor, type AdyenLedgerEntry } from './ledger.js';
import { AdyenNotifier, pspReference } from './notifier.js';

export interface AdyenFakeOptions {
  apiKey?: string;
  merchantAccount?: string;
  /** Where notifications go (the service's POST /processors/adyen/notifications); none: not sent. */
  notificationUrl?: string;
  /** The merchant's HMAC key, hex. */
  hmacKeyHex?: string;
  /** How long a request stays "in progress" before it is performed (to test 704), ms. */
  processingDelayMs?: number;
}

export interface AdyenFake extends Omit<FaultServer, 'url'> {
  readonly url: string;
  readonly apiKey: string;
  readonly merchantAccount: string;
  readonly hmacKeyHex: string;
  /** Every operation performed, once each. */
  readonly ledger: AdyenLedgerEntry[];
  /** Requests refused for not matching the published schema (paths of the violations only). */
  readonly rejections: { path: string; problems: string[] }[];
  readonly requests: FakeRequest[];
  readonly notifier: AdyenNotifier;
  processingDelayMs: number;
}

/** A key's record: absent answer while the first request under it is running. Adyen compares no bodies. */
interface Stored {
  answer?: FakeAnswer;
}

interface FakePayment {
  pspReference: string;
  reference: string;
  amount: { currency: string; value: number };
  authorised: boolean;
  captured: number;
  refunded: number;
  cancelled: boolean;
}

/**
 * A faithful fake of Adyen's Checkout API v71 (the operations this service uses): every request
 * is checked against the published schema (the transcription) and the documented rules, the
 * documented idempotency is kept (same Idempotency-Key → the first answer, with the key echoed;
 * while the first is running → 422 errorCode 704; a key is never performed twice), amounts
 * decide the outcome (ledger.ts), modifications answer 201 "received" and are settled by signed
 * notifications, and every fault of fault-server.ts can be set per test.
 */
export async function startAdyenFake(options: AdyenFakeOptions = {}): Promise<AdyenFake> {
  const apiKey = options.apiKey ?? `AQE_fake_${randomBytes(8).toString('hex')}`;
  const merchantAccount = options.merchantAccount ?? 'FakeMerchantECOM';
  const hmacKeyHex = options.hmacKeyHex ?? randomBytes(32).toString('hex').toUpperCase();
  const ledger: AdyenLedgerEntry[] = [];
  const rejections: AdyenFake['rejections'] = [];
  const requests: FakeRequest[] = [];
  const keys = new Map<string, Stored>();
  const payments = new Map<string, FakePayment>();
  const notifier = new AdyenNotifier({ ...(options.notificationUrl ? { url: options.notificationUrl } : {}), hmacKeyHex, merchantAccount });
  const state = { processingDelayMs: options.processingDelayMs ?? 0 };

  const error = (status: number, errorCode: string, errorType: string, message: string, headers?: Record<string, string>): FakeAnswer => ({
    status,
    ...(headers ? { headers } : {}),
    body: { status, errorCode, errorType, message },
  });

  async function handle(request: FakeRequest): Promise<FakeAnswer> {
    if (request.headers['x-api-key'] !== apiKey) return error(401, '000', 'security', 'HTTP Status Response - Unauthorized');
    if (request.method !== 'POST') return error(405, '000', 'validation', 'Method not allowed');
    const route = routeOf(request.path);
    if (!route) return error(404, '000', 'validation', 'Not found');
    const problems = violations(adyenCheckoutV71, route.schema, request.body);
    if (problems.length > 0) {
      rejections.push({ path: request.path, problems });
      return error(422, '702', 'validation', 'Structure of the request is invalid');
    }
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string' || key.length === 0 || key.length > 64) {
      rejections.push({ path: request.path, problems: ['Idempotency-Key header: missing or longer than 64'] });
      return error(422, '702', 'validation', 'Idempotency-Key missing or too long');
    }
    const stored = keys.get(key);
    if (stored?.answer) return withKey(stored.answer, key); // the first answer, whatever was sent now
    if (stored) return error(422, '704', 'validation', 'request already processed or in progress');
    keys.set(key, {});
    if (state.processingDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.processingDelayMs));
    const answer =
      route.kind === 'payments' ? authorise(request.body as PaymentBody, key) : modify(route.kind, route.pspReference, request.body as ModificationBody, key);
    keys.set(key, { answer });
    if (notifier.mode === 'ahead') await notifier.settled();
    return withKey(answer, key);
  }

  function authorise(body: PaymentBody, key: string): FakeAnswer {
    const semantic = paymentSemantics(body);
    if (semantic) {
      keys.delete(key);
      rejections.push({ path: '/payments', problems: [semantic] });
      return error(422, '000', 'validation', semantic);
    }
    const decision = authorisationFor(body.amount.value);
    const psp = pspReference();
    const authorised = decision.resultCode === 'Authorised' || decision.notified === true;
    payments.set(psp, {
      pspReference: psp,
      reference: body.reference,
      amount: body.amount,
      authorised,
      captured: body.captureDelayHours === 0 && authorised ? body.amount.value : 0,
      refunded: 0,
      cancelled: false,
    });
    ledger.push({
      operation: 'AUTHORISE',
      idempotencyKey: key,
      reference: body.reference,
      pspReference: psp,
      amount: body.amount,
      result: decision.resultCode,
    });
    notifier.notify({ eventCode: 'AUTHORISATION', pspReference: psp, merchantReference: body.reference, amount: body.amount, success: authorised });
    const refused = decision.resultCode !== 'Authorised' && decision.resultCode !== 'Received';
    return {
      status: 200,
      body: {
        pspReference: psp,
        resultCode: decision.resultCode,
        merchantReference: body.reference,
        amount: body.amount,
        ...(decision.resultCode === 'Authorised' ? { additionalData: { authCode: psp.slice(-6) } } : {}),
        ...(refused
          ? {
              refusalReason: 'Refused by the fake',
              refusalReasonCode: decision.refusalReasonCode,
              ...(decision.refusalReasonRaw ? { additionalData: { refusalReasonRaw: decision.refusalReasonRaw } } : {}),
            }
          : {}),
      },
    };
  }

  function modify(kind: 'captures' | 'cancels' | 'refunds', paymentPsp: string, body: ModificationBody, key: string): FakeAnswer {
    const payment = payments.get(paymentPsp);
    if (!payment || body.merchantAccount !== merchantAccount) {
      keys.delete(key);
      return error(422, '167', 'validation', 'Original pspReference required for this operation');
    }
    const psp = pspReference();
    const value = body.amount?.value ?? payment.amount.value;
    const succeeded = settle(kind, payment, value);
    const eventCode = kind === 'captures' ? 'CAPTURE' : kind === 'cancels' ? 'CANCELLATION' : 'REFUND';
    ledger.push({
      operation: kind === 'captures' ? 'CAPTURE' : kind === 'cancels' ? 'CANCEL' : 'REFUND',
      idempotencyKey: key,
      reference: body.reference ?? '',
      pspReference: psp,
      paymentPspReference: paymentPsp,
      ...(body.amount ? { amount: body.amount } : {}),
      result: String(succeeded),
    });
    notifier.notify({
      eventCode,
      pspReference: psp,
      originalReference: paymentPsp,
      merchantReference: body.reference ?? payment.reference,
      amount: body.amount ?? payment.amount,
      success: succeeded,
    });
    return {
      status: 201,
      body: {
        merchantAccount,
        paymentPspReference: paymentPsp,
        pspReference: psp,
        ...(body.reference ? { reference: body.reference } : {}),
        status: 'received',
        ...(body.amount ? { amount: body.amount } : {}),
      },
    };
  }

  const server = await startFaultServer({
    handle,
    serverError: () => error(500, '905', 'internal', 'Internal error'),
    onRequest: (request) => requests.push(request),
  });

  return {
    ...server,
    apiKey,
    merchantAccount,
    hmacKeyHex,
    ledger,
    rejections,
    requests,
    notifier,
    get processingDelayMs() {
      return state.processingDelayMs;
    },
    set processingDelayMs(value: number) {
      state.processingDelayMs = value;
    },
    async close() {
      await notifier.settled();
      await server.close();
    },
  };
}

interface PaymentBody {
  reference: string;
  amount: { currency: string; value: number };
  captureDelayHours?: number;
  paymentMethod: { type?: string; number?: string; expiryMonth?: string; expiryYear?: string };
  mpiData?: {
    tokenAuthenticationVerificationValue?: string;
    eci?: string;
    cavv?: string;
    dsTransID?: string;
    threeDSVersion?: string;
    directoryResponse?: string;
  };
}

interface ModificationBody {
  merchantAccount: string;
  reference?: string;
  amount?: { currency: string; value: number };
}

/**
 * What the published schema cannot say but Adyen's documentation does: a network-token payment
 * carries the token, its expiry and its cryptogram with an ECI; external 3DS data comes whole.
 */
function paymentSemantics(body: PaymentBody): string | undefined {
  const method = body.paymentMethod;
  if (method.type !== 'networkToken' || !method.number || !method.expiryMonth || !method.expiryYear)
    return 'paymentMethod: a networkToken with number and expiry is required';
  if (!body.mpiData?.tokenAuthenticationVerificationValue) return 'mpiData.tokenAuthenticationVerificationValue is required for a network token';
  if (!body.mpiData.eci || !/^\d{2}$/.test(body.mpiData.eci)) return 'mpiData.eci: two digits';
  if (body.mpiData.cavv && (!body.mpiData.dsTransID || !body.mpiData.threeDSVersion || !body.mpiData.directoryResponse))
    return 'mpiData: external 3DS needs cavv, dsTransID, threeDSVersion and directoryResponse';
  return undefined;
}

/** Adyen's accounting rules (docs.adyen.com API idempotency): no capture above the authorization, no refund above the captured amount. */
function settle(kind: 'captures' | 'cancels' | 'refunds', payment: FakePayment, value: number): boolean {
  if (!payment.authorised || payment.cancelled) return false;
  if (kind === 'cancels') {
    if (payment.captured > 0) return false;
    payment.cancelled = true;
    return true;
  }
  if (kind === 'captures') {
    if (payment.captured + value > payment.amount.value) return false;
    payment.captured += value;
    return true;
  }
  if (payment.refunded + value > payment.captured) return false;
  payment.refunded += value;
  return true;
}

function routeOf(
  path: string,
): { kind: 'payments'; schema: string } | { kind: 'captures' | 'cancels' | 'refunds'; schema: string; pspReference: string } | undefined {
  if (path === '/payments') return { kind: 'payments', schema: 'PaymentRequest' };
  const match = /^\/payments\/([^/]+)\/(captures|cancels|refunds)$/.exec(path);
  if (!match) return undefined;
  const kind = match[2] as 'captures' | 'cancels' | 'refunds';
  const schema = { captures: 'PaymentCaptureRequest', cancels: 'PaymentCancelRequest', refunds: 'PaymentRefundRequest' }[kind];
  return { kind, schema, pspReference: decodeURIComponent(match[1]!) };
}

function withKey(answer: FakeAnswer, key: string): FakeAnswer {
  return { ...answer, headers: { ...answer.headers, 'idempotency-key': key } };
}
