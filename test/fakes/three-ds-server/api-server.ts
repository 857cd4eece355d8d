import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { schemaOf } from '../../../lib/adapters/three-ds/threedsecure-io/field-tables/field-schema.js';
import {
  AREQ,
  MESSAGE_VERSIONS,
  POSTAUTH_REQUEST,
  PREAUTH_REQUEST,
  type MessageVersion,
} from '../../../lib/adapters/three-ds/threedsecure-io/field-tables/tables.js';
import { amountFault, cardCase, type AuthFault } from './decisions.js';
import type { Endpoint, Faults } from './faults.js';
import { readBody, send, sendJson } from './http-util.js';
import type { Ledger } from './ledger.js';
import * as messages from './messages.js';
import type { Transaction, Transactions } from './transactions.js';
import { erroOfIssues } from './validation.js';

export interface ApiOptions {
  apiKey: string;
  acsUrl: () => string;
  transactions: Transactions;
  ledger: Ledger;
  faults: Faults;
  now: () => number;
  /** preauth.rst: "The threeDSServerTransID expires after 80 seconds." */
  transactionTtlMs: number;
  /** postauth.rst: the result is kept 300 s after the 3DS Server receives it. */
  rreqTtlMs: number;
  /** challenge_flow.rst: 30 s from the ARes to start the challenge; after it the ACS reports challengeCancel 05. */
  creqTimeoutMs: number;
  /** How long the directory server keeps the 3DS Server waiting before the DS-timeout Erro 405. */
  dsTimeoutMs: number;
  /** How late a `slow` answer comes. */
  slowMs: number;
  loopbackHttpAllowed: boolean;
}

const preauthSchema = schemaOf(PREAUTH_REQUEST, { unknownFields: 'refuse' });
const postauthSchema = schemaOf(POSTAUTH_REQUEST, { unknownFields: 'refuse' });

/**
 * The fake 3DS Server's API, as 3dsecure.io documents it (server-information.rst, preauth.rst,
 * auth.rst, postauth.rst): POST JSON with the APIKey header; 401 text "Invalid API Key";
 * every request validated against the published tables (field-tables/); Erro messages for
 * what the server refuses. The directory server and ACS decide by card (decisions.ts).
 */
export function apiHandler(options: ApiOptions) {
  const areqSchemas = Object.fromEntries(
    MESSAGE_VERSIONS.map((v) => [v, schemaOf(AREQ[v], { unknownFields: 'refuse', loopbackHttpAllowed: options.loopbackHttpAllowed })]),
  ) as Record<MessageVersion, ReturnType<typeof schemaOf>>;

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const endpoint = req.url as Endpoint;
    if (req.method !== 'POST' || !['/preauth', '/auth', '/postauth'].includes(endpoint)) return send(res, 404, 'text/plain; charset=utf-8', 'Not Found');
    const text = await readBody(req);
    if (req.headers.apikey !== options.apiKey) return send(res, 401, 'text/plain; charset=utf-8', 'Invalid API Key');
    const body = parseJson(text);
    const fault = options.faults.take(endpoint) ?? (endpoint === '/auth' ? amountFault(body?.purchaseAmount) : undefined);
    if (fault === 'hang') return; // received, never processed, never answered
    if (fault === 'http-503') return send(res, 503, 'text/html; charset=utf-8', '<html><body>503 Service Unavailable</body></html>');
    if (fault === 'reset') return void req.socket.destroy();
    if (!body || !/^application\/json/i.test(req.headers['content-type'] ?? '')) {
      return answer(
        res,
        fault,
        options,
        400,
        messages.erro(undefined, {
          code: '101',
          description: 'Message Received Invalid',
          detail: 'a JSON object with Content-Type application/json was expected',
        }),
      );
    }
    const [status, message] =
      endpoint === '/preauth' ? preauth(body, options) : endpoint === '/postauth' ? postauth(body, options) : await auth(body, options, areqSchemas);
    return answer(res, fault, options, status, message);
  };
}

async function answer(res: ServerResponse, fault: AuthFault | undefined, options: ApiOptions, status: number, message: unknown): Promise<void> {
  if (fault === 'lose-answer') return void res.socket?.destroy();
  if (fault === 'slow') await new Promise((resolve) => setTimeout(resolve, options.slowMs));
  if (res.socket?.destroyed) return;
  sendJson(res, status, message);
}

function preauth(body: Record<string, unknown>, options: ApiOptions): [number, unknown] {
  const parsed = preauthSchema.safeParse(body, { reportInput: true });
  if (!parsed.success) return [400, messages.erro(undefined, { ...erroOfIssues(parsed.error.issues), messageType: 'PReq' })];
  const acctNumber = body.acctNumber as string;
  const card = cardCase(acctNumber);
  if (!card)
    return [
      400,
      messages.erro(undefined, {
        code: '305',
        description: 'Transaction data not valid',
        detail: 'no test case for these last four digits',
        messageType: 'PReq',
      }),
    ];
  if (!card.enrolled) {
    // preauth.rst "BIN not enrolled error", verbatim codes.
    return [
      200,
      messages.erro('2.2.0', { code: '305', description: 'Unknown BIN', detail: 'No CRD found, card with BIN ****** is not enrolled with any known DS' }),
    ];
  }
  const transaction: Transaction = {
    threeDSServerTransID: randomUUID(),
    createdAt: options.now(),
    acctNumber,
    ds: (body.ds as string | undefined) ?? 'standin',
    card,
    methodCompleted: false,
    ...(card.method === 'absent' ? {} : { methodUrl: `${options.acsUrl()}/method` }),
  };
  options.transactions.add(transaction);
  return [200, messages.crd(transaction)];
}

function postauth(body: Record<string, unknown>, options: ApiOptions): [number, unknown] {
  const parsed = postauthSchema.safeParse(body, { reportInput: true });
  if (!parsed.success) return [400, messages.erro(undefined, erroOfIssues(parsed.error.issues))];
  const id = body.threeDSServerTransID as string;
  options.ledger.postauths.push(id);
  const transaction = options.transactions.get(id);
  const version = transaction?.auth?.messageVersion;
  const unknown = () =>
    messages.erro(version, { code: '203', description: 'Unknown threeDSServerTransID', detail: 'Unknown threeDSServerTransID', threeDSServerTransID: id });
  if (!transaction?.auth) return [400, unknown()];
  if (!transaction.rreq) {
    // decoupled_authentication.rst "Example RReq not received".
    return [
      400,
      messages.erro(version, {
        code: '305',
        description: 'No RReq has been received',
        detail: 'No response from directory server yet',
        threeDSServerTransID: id,
      }),
    ];
  }
  if (transaction.rreq.receivedAt + options.rreqTtlMs < options.now()) return [400, unknown()];
  return [200, transaction.rreq.message];
}

async function auth(
  body: Record<string, unknown>,
  options: ApiOptions,
  schemas: Record<MessageVersion, ReturnType<typeof schemaOf>>,
): Promise<[number, unknown]> {
  const version = body.messageVersion;
  const refuse = (code: string, description: string, detail: string, id?: string) =>
    messages.erro(typeof version === 'string' ? version : undefined, {
      code,
      description,
      detail,
      messageType: 'AReq',
      ...(id ? { threeDSServerTransID: id } : {}),
    });
  if (version !== '2.2.0' && version !== '2.3.1')
    return [400, refuse('102', 'Message Version Number Not Supported', 'messageVersion must be 2.2.0 or 2.3.1 here')];
  const parsed = schemas[version].safeParse(body, { reportInput: true });
  const id = typeof body.threeDSServerTransID === 'string' ? body.threeDSServerTransID : undefined;
  const transaction = id ? options.transactions.get(id) : undefined;
  const record = (answer: string) =>
    options.ledger.areqs.push({
      threeDSServerTransID: id ?? '',
      messageVersion: version,
      threeDSCompInd: String(body.threeDSCompInd),
      acctLast4: String(body.acctNumber ?? '').slice(-4),
      answer,
      at: options.now(),
    });
  if (!parsed.success) {
    const error = erroOfIssues(parsed.error.issues);
    record(`erro ${error.code}`);
    return [400, refuse(error.code, error.description, error.detail, id)];
  }
  if (!transaction || transaction.createdAt + options.transactionTtlMs < options.now()) {
    record('erro 301');
    return [400, refuse('301', 'Transaction ID Not Recognised', 'no preauth opened this threeDSServerTransID, or it expired (80 s)', id)];
  }
  if (transaction.auth) {
    record('erro 305 duplicate');
    return [400, refuse('305', 'Transaction data not valid', 'an AReq was already sent for this threeDSServerTransID', id)];
  }
  if (body.acctNumber !== transaction.acctNumber) {
    record('erro 305');
    return [400, refuse('305', 'Transaction data not valid', 'acctNumber differs from the preauth', id)];
  }
  if (!transaction.card.versions.includes(version)) {
    record('erro 102');
    return [400, refuse('102', 'Message Version Number Not Supported', 'the card range does not support this messageVersion', id)];
  }
  const compInd = body.threeDSCompInd;
  if ((compInd === 'U') !== (transaction.methodUrl === undefined)) {
    record('erro 305');
    return [400, refuse('305', 'Transaction data not valid', 'threeDSCompInd must be U exactly when the card range has no 3DS Method URL (3dsmethod.rst)', id)];
  }
  if (compInd === 'Y' && !transaction.methodCompleted) options.ledger.methodClaims.push(id!);

  const outcome = transaction.card.ares;
  if (outcome === 'ds-timeout') {
    await new Promise((resolve) => setTimeout(resolve, options.dsTimeoutMs));
    record('erro 405');
    // auth.rst "Directory Server timeout response".
    return [504, refuse('405', 'Unable to contact Directory Server', 'Connection timeout', id)];
  }
  const auth = {
    messageVersion: version,
    acsTransID: randomUUID(),
    dsTransID: randomUUID(),
    notificationURL: body.notificationURL as string,
    aresAt: options.now(),
    transStatus: outcome,
  };
  transaction.auth = outcome === 'C' ? { ...auth, challenge: { answered: false } } : auth;
  options.transactions.indexAcs(transaction);
  const message = messages.ares({
    version,
    transaction,
    acsTransID: auth.acsTransID,
    dsTransID: auth.dsTransID,
    transStatus: outcome,
    acsURL: `${options.acsUrl()}/challenge`,
  });
  record(outcome);
  if (outcome === 'C') startCreqTimer(transaction, options);
  return [200, message];
}

/** EMV 3DS: an ACS that gets no CReq in time ends the transaction and tells the 3DS Server (RReq N, challengeCancel 05). */
function startCreqTimer(transaction: Transaction, options: ApiOptions): void {
  const challenge = transaction.auth!.challenge!;
  challenge.timer = setTimeout(() => {
    if (challenge.creqAt !== undefined || challenge.answered) return;
    challenge.answered = true;
    deliverRreq(transaction, 'N', options, '05');
  }, options.creqTimeoutMs);
  challenge.timer.unref();
}

export function deliverRreq(transaction: Transaction, transStatus: 'Y' | 'N', options: Pick<ApiOptions, 'ledger' | 'now'>, challengeCancel?: string): void {
  transaction.rreq = { message: messages.rreq(transaction, transStatus, challengeCancel), receivedAt: options.now() };
  options.ledger.rreqs.push({ threeDSServerTransID: transaction.threeDSServerTransID, transStatus });
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
