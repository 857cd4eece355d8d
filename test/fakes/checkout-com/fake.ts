import { randomBytes } from 'node:crypto';
import { checkoutComNas } from '../../../lib/adapters/processors/checkout-com/api-schema.js';
import { startFaultServer, type FakeAnswer, type FakeRequest, type FaultServer } from '../fault-server.js';
import { violations } from '../schema-check.js';

export interface CheckoutComLedgerEntry {
  operation: 'PAYMENT' | 'CAPTURE' | 'VOID' | 'REFUND';
  idempotencyKey: string;
  reference: string;
  id: string;
  amount: number;
  approved: boolean | 'pending';
  responseCode: string;
}

export interface CheckoutComFake extends FaultServer {
  readonly secretKey: string;
  readonly processingChannelId: string;
  readonly ledger: CheckoutComLedgerEntry[];
  readonly rejections: { path: string; problems: string[] }[];
  readonly requests: FakeRequest[];
  /** How long a request stays in progress before it is performed (to test 429), ms. */
  processingDelayMs: number;
  /** Settles a payment answered 202 (Pending): approved or declined. */
  settlePending(paymentId: string, approved: boolean): void;
  /**
   * While true, an accepted capture, void or refund (202) is performed but not yet listed by
   * GET /payments/{id}/actions — as when Checkout.com has not processed it yet.
   */
  holdActions: boolean;
  /** Lists the actions held so far. */
  releaseActions(): void;
}

interface Action {
  id: string;
  type: 'Authorization' | 'Capture' | 'Void' | 'Refund';
  processed_on: string;
  amount: number;
  approved: boolean;
  response_code: string;
  reference?: string;
}

interface Payment {
  id: string;
  reference: string;
  amount: number;
  currency: string;
  requested_on: string;
  status: string;
  approved: boolean;
  captured: number;
  refunded: number;
  voided: boolean;
  actions: Action[];
}

/**
 * Amounts that decide a payment (docs/design/processors.md "Fakes"): ending 51 → declined 20051,
 * 05 → 20005, 54 → 20054, 41 → 30041 (lost card), 59 → 20059, 77 → 202 Pending (settled later by
 * settlePending); otherwise approved 10000.
 */
const DECLINES: Readonly<Record<string, string>> = { '51': '20051', '05': '20005', '54': '20054', '41': '30041', '59': '20059' };

/**
 * A faithful fake of Checkout.com's payments API (the operations this service uses): every
 * request checked against the published schema (the transcription) and documented rules, the
 * documented idempotency kept (a Cko-Idempotency-Key whose request answered 2xx returns the same
 * status and body; a 4xx/5xx is not kept; a concurrent request under the same key gets 429),
 * GET /payments?reference= and GET /payments/{id}/actions answered from what it performed, and
 * every fault of fault-server.ts settable per test.
 */
export async function startCheckoutComFake(options: { secretKey?: string; processingChannelId?: string } = {}): Promise<CheckoutComFake> {
  const secretKey = options.secretKey ?? `sk_sbox_${randomBytes(13).toString('hex').slice(0, 26)}`;
  const processingChannelId = options.processingChannelId ?? `pc_${id26()}`;
  const ledger: CheckoutComLedgerEntry[] = [];
  const rejections: CheckoutComFake['rejections'] = [];
  const requests: FakeRequest[] = [];
  const keys = new Map<string, FakeAnswer | 'in-progress'>();
  const payments = new Map<string, Payment>();
  const state = { processingDelayMs: 0, holdActions: false };
  const heldActions: { payment: Payment; action: Action }[] = [];
  const invalid = (codes: string[]): FakeAnswer => ({ status: 422, body: { request_id: `req_${id26()}`, error_type: 'request_invalid', error_codes: codes } });

  async function handle(request: FakeRequest): Promise<FakeAnswer> {
    if (request.headers.authorization !== `Bearer ${secretKey}`) return { status: 401 };
    if (request.method === 'GET') return read(request);
    const route = /^\/payments(?:\/([^/]+)\/(captures|voids|refunds))?$/.exec(request.path);
    if (!route || request.method !== 'POST') return { status: 404 };
    const kind = (route[2] ?? 'payments') as 'payments' | 'captures' | 'voids' | 'refunds';
    const schema = { payments: 'PaymentRequest', captures: 'CaptureRequest', voids: 'VoidRequest', refunds: 'RefundRequest' }[kind];
    const problems = [...violations(checkoutComNas, schema, request.body), ...semantics(kind, request.body, processingChannelId)];
    if (problems.length > 0) {
      rejections.push({ path: request.path, problems });
      return invalid(['request_invalid']);
    }
    const key = request.headers['cko-idempotency-key'];
    if (typeof key !== 'string' || key === '') {
      rejections.push({ path: request.path, problems: ['Cko-Idempotency-Key header missing'] });
      return invalid(['idempotency_key_required']);
    }
    const stored = keys.get(key);
    if (stored === 'in-progress') return { status: 429, body: { request_id: `req_${id26()}`, error_type: 'too_many_requests' } };
    if (stored) return stored;
    keys.set(key, 'in-progress');
    if (state.processingDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.processingDelayMs));
    const answer = kind === 'payments' ? pay(request.body as PaymentBody, key) : act(kind, decodeURIComponent(route[1]!), request.body as ActionBody, key);
    // Only a 2xx is kept for the key; anything else is reattempted on the next request.
    if (answer.status >= 200 && answer.status < 300) keys.set(key, answer);
    else keys.delete(key);
    return answer;
  }

  function pay(body: PaymentBody, key: string): FakeAnswer {
    const id = `pay_${id26()}`;
    const end = String(body.amount).padStart(2, '0').slice(-2);
    const now = new Date().toISOString();
    const pending = end === '77';
    const declineCode = DECLINES[end];
    const approved = !pending && !declineCode;
    const responseCode = declineCode ?? '10000';
    const authorization: Action = {
      id: `act_${id26()}`,
      type: 'Authorization',
      processed_on: now,
      amount: body.amount,
      approved,
      response_code: responseCode,
      reference: body.reference,
    };
    const payment: Payment = {
      id,
      reference: body.reference,
      amount: body.amount,
      currency: body.currency,
      requested_on: now,
      status: pending ? 'Pending' : approved ? (body.capture ? 'Captured' : 'Authorized') : 'Declined',
      approved,
      captured: approved && body.capture ? body.amount : 0,
      refunded: 0,
      voided: false,
      actions: pending ? [] : [authorization],
    };
    payments.set(id, payment);
    ledger.push({
      operation: 'PAYMENT',
      idempotencyKey: key,
      reference: body.reference,
      id,
      amount: body.amount,
      approved: pending ? 'pending' : approved,
      responseCode,
    });
    const links = { self: { href: `/payments/${id}` }, actions: { href: `/payments/${id}/actions` } };
    if (pending) return { status: 202, body: { id, status: 'Pending', reference: body.reference, _links: { self: links.self } } };
    return {
      status: 201,
      body: {
        id,
        action_id: authorization.id,
        amount: body.amount,
        currency: body.currency,
        approved,
        status: approved ? 'Authorized' : 'Declined',
        ...(approved ? { auth_code: id.slice(-6) } : {}),
        response_code: responseCode,
        response_summary: approved ? 'Approved' : 'Declined',
        processed_on: now,
        reference: body.reference,
        eci: body['3ds']?.eci ?? body.source.eci,
        _links: links,
      },
    };
  }

  function act(kind: 'captures' | 'voids' | 'refunds', paymentId: string, body: ActionBody, key: string): FakeAnswer {
    const payment = payments.get(paymentId);
    if (!payment) return { status: 404 };
    const amount = body.amount ?? (kind === 'refunds' ? payment.captured - payment.refunded : payment.amount - payment.captured);
    const refusal = refusalOf(kind, payment, amount);
    if (refusal) return invalid([refusal]);
    if (kind === 'captures') payment.captured += amount;
    if (kind === 'refunds') payment.refunded += amount;
    if (kind === 'voids') payment.voided = true;
    payment.status = statusOf(payment);
    const type = kind === 'captures' ? 'Capture' : kind === 'voids' ? 'Void' : 'Refund';
    const action: Action = {
      id: `act_${id26()}`,
      type,
      processed_on: new Date().toISOString(),
      amount,
      approved: true,
      response_code: '10000',
      ...(body.reference ? { reference: body.reference } : {}),
    };
    if (state.holdActions) heldActions.push({ payment, action });
    else payment.actions.unshift(action);
    ledger.push({
      operation: kind === 'captures' ? 'CAPTURE' : kind === 'voids' ? 'VOID' : 'REFUND',
      idempotencyKey: key,
      reference: body.reference ?? '',
      id: action.id,
      amount,
      approved: true,
      responseCode: '10000',
    });
    return {
      status: 202,
      body: { action_id: action.id, ...(body.reference ? { reference: body.reference } : {}), _links: { payment: { href: `/payments/${paymentId}` } } },
    };
  }

  function read(request: FakeRequest): FakeAnswer {
    if (request.path === '/payments') {
      const reference = request.query.get('reference');
      if (!reference) return invalid(['reference_required']);
      const limit = Math.min(Number(request.query.get('limit') ?? 10), 100);
      const skip = Number(request.query.get('skip') ?? 0);
      const found = [...payments.values()].filter((payment) => payment.reference === reference).reverse();
      return { status: 200, body: { limit, skip, total_count: found.length, data: found.slice(skip, skip + limit).map(details) } };
    }
    const match = /^\/payments\/([^/]+)\/actions$/.exec(request.path);
    const payment = match ? payments.get(decodeURIComponent(match[1]!)) : undefined;
    if (!payment || payment.actions.length === 0) return { status: 404 };
    return { status: 200, body: payment.actions };
  }

  const server = await startFaultServer({ handle, serverError: () => ({ status: 502 }), onRequest: (request) => requests.push(request) });
  return {
    ...server,
    secretKey,
    processingChannelId,
    ledger,
    rejections,
    requests,
    get processingDelayMs() {
      return state.processingDelayMs;
    },
    set processingDelayMs(value: number) {
      state.processingDelayMs = value;
    },
    get holdActions() {
      return state.holdActions;
    },
    set holdActions(value: boolean) {
      state.holdActions = value;
    },
    releaseActions() {
      for (const { payment, action } of heldActions.splice(0)) payment.actions.unshift(action);
    },
    settlePending(paymentId, approved) {
      const payment = payments.get(paymentId);
      if (payment?.status !== 'Pending') throw new Error('no pending payment with that id');
      payment.approved = approved;
      payment.status = approved ? 'Authorized' : 'Declined';
      payment.actions.push({
        id: `act_${id26()}`,
        type: 'Authorization',
        processed_on: new Date().toISOString(),
        amount: payment.amount,
        approved,
        response_code: approved ? '10000' : '20005',
        reference: payment.reference,
      });
    },
  };
}

interface PaymentBody {
  source: { type: string; token: string; token_type: string; eci: string; cryptogram: string };
  amount: number;
  currency: string;
  reference: string;
  capture?: boolean;
  processing_channel_id?: string;
  '3ds'?: { enabled?: boolean; eci?: string; cryptogram?: string; xid?: string; version?: string };
}

interface ActionBody {
  amount?: number;
  reference?: string;
}

/** Documented rules beyond the schema: a network token payment names its channel and amount; external 3DS data comes whole. */
function semantics(kind: string, body: unknown, processingChannelId: string): string[] {
  if (kind !== 'payments') return [];
  const payment = body as PaymentBody;
  const problems: string[] = [];
  if (!payment.source) problems.push('source: required for a payment');
  if (payment.processing_channel_id !== processingChannelId) problems.push('processing_channel_id: not this account’s');
  if (payment.amount === undefined) problems.push('amount: required (0 would be a card verification)');
  if (!payment.reference) problems.push('reference: required by this service for lookup');
  const threeDs = payment['3ds'];
  if (threeDs && (!threeDs.enabled || !threeDs.eci || !threeDs.cryptogram || !threeDs.version))
    problems.push('3ds: a third-party authentication needs enabled, eci, cryptogram and version');
  return problems;
}

function refusalOf(kind: 'captures' | 'voids' | 'refunds', payment: Payment, amount: number): string | undefined {
  if (!payment.approved || payment.voided) return 'action_not_allowed';
  if (kind === 'voids') return payment.captured > 0 ? 'action_not_allowed' : undefined;
  if (kind === 'captures') return payment.captured + amount > payment.amount ? 'amount_exceeds_balance' : undefined;
  return payment.refunded + amount > payment.captured ? 'refund_amount_exceeds_balance' : undefined;
}

function statusOf(payment: Payment): string {
  if (payment.voided) return 'Voided';
  if (payment.refunded > 0) return payment.refunded >= payment.captured ? 'Refunded' : 'Partially Refunded';
  if (payment.captured > 0) return payment.captured >= payment.amount ? 'Captured' : 'Partially Captured';
  return 'Authorized';
}

function details(payment: Payment) {
  return {
    id: payment.id,
    requested_on: payment.requested_on,
    amount: payment.amount,
    currency: payment.currency,
    reference: payment.reference,
    approved: payment.approved,
    status: payment.status,
    _links: { self: { href: `/payments/${payment.id}` }, actions: { href: `/payments/${payment.id}/actions` } },
  };
}

function id26(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  return Array.from(randomBytes(26), (byte) => alphabet[byte % 32]).join('');
}
