import type { IncomingMessage, ServerResponse } from 'node:http';
import * as z from 'zod';
import { decodeJsonBase64Url, encodeJsonBase64Url } from '../../../lib/adapters/three-ds/threedsecure-io/base64url.js';
import { schemaOf } from '../../../lib/adapters/three-ds/threedsecure-io/field-tables/field-schema.js';
import { CREQ } from '../../../lib/adapters/three-ds/threedsecure-io/field-tables/tables.js';
import { deliverRreq } from './api-server.js';
import { acsError, autoPost, challengePage, methodStuck } from './acs-pages.js';
import { CHALLENGE_CODE } from './decisions.js';
import { readBody, send, sendHtml } from './http-util.js';
import type { Ledger } from './ledger.js';
import * as messages from './messages.js';
import type { Transactions } from './transactions.js';

export interface AcsOptions {
  transactions: Transactions;
  ledger: Ledger;
  now: () => number;
  creqTimeoutMs: number;
  /** The CRes is posted with base64 padding (3dsecure.io's sandbox once did; challenge_flow.rst says receivers must cope). */
  paddedCres: boolean;
}

const creqSchema = schemaOf(CREQ, { unknownFields: 'refuse' });
/** 3dsmethod.rst "Initiating 3DS Method": the JSON the page posts, base64url. */
const methodDataSchema = z.strictObject({ threeDSServerTransID: z.uuid(), threeDSMethodNotificationURL: z.url().max(256) });

/**
 * The fake ACS, on an origin of its own (as an issuer's is): the 3DS Method URL, the challenge
 * (acsURL) and the challenge's answer. Its final pages form-POST to the requestor's URLs.
 */
export function acsHandler(options: AcsOptions) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'POST') return send(res, 405, 'text/plain; charset=utf-8', 'Method Not Allowed');
    const form = new URLSearchParams(await readBody(req));
    if (req.url === '/method') return method(form, res, options);
    if (req.url === '/challenge') return challenge(form, res, options);
    if (req.url === '/challenge/answer') return answer(form, res, options);
    return send(res, 404, 'text/plain; charset=utf-8', 'Not Found');
  };
}

function method(form: URLSearchParams, res: ServerResponse, options: AcsOptions): void {
  const parsed = methodDataSchema.safeParse(decodeJsonBase64Url(form.get('threeDSMethodData') ?? '', 2048));
  if (!parsed.success) return sendHtml(res, 400, acsError('The device data request is not valid.'));
  const { threeDSServerTransID, threeDSMethodNotificationURL } = parsed.data;
  const transaction = options.transactions.get(threeDSServerTransID);
  if (!transaction?.methodUrl) return sendHtml(res, 400, acsError('Unknown transaction.'));
  const completes = transaction.card.method === 'present';
  options.ledger.methodPosts.push({ threeDSServerTransID, completed: completes });
  if (!completes) return sendHtml(res, 200, methodStuck());
  transaction.methodCompleted = true;
  sendHtml(
    res,
    200,
    autoPost('Device data', threeDSMethodNotificationURL, { threeDSMethodData: encodeJsonBase64Url({ threeDSServerTransID }) }, 'Device data collected.'),
  );
}

function challenge(form: URLSearchParams, res: ServerResponse, options: AcsOptions): void {
  const creq = decodeJsonBase64Url(form.get('creq') ?? '');
  const parsed = creqSchema.safeParse(creq);
  if (!creq || !parsed.success) return sendHtml(res, 400, acsError('The challenge request is not valid.'));
  const sessionData = form.get('threeDSSessionData') ?? undefined;
  if (sessionData !== undefined && (sessionData.length > 1024 || !/^[A-Za-z0-9_-]*={0,2}$/.test(sessionData)))
    return sendHtml(res, 400, acsError('The session data is not valid.'));
  const transaction = options.transactions.byAcsTransID(creq.acsTransID as string);
  const auth = transaction?.auth;
  if (!transaction || !auth?.challenge || creq.threeDSServerTransID !== transaction.threeDSServerTransID || creq.messageVersion !== auth.messageVersion) {
    return sendHtml(res, 400, acsError('Unknown challenge.'));
  }
  if (auth.challenge.answered) return sendHtml(res, 409, acsError('This verification has already ended.'));
  if (auth.challenge.creqAt === undefined && options.now() - auth.aresAt > options.creqTimeoutMs)
    return sendHtml(res, 410, acsError('This verification has expired.'));
  auth.challenge.creqAt ??= options.now();
  auth.challenge.windowSize = creq.challengeWindowSize as string;
  clearTimeout(auth.challenge.timer);
  options.ledger.creqs.push({ acsTransID: auth.acsTransID, challengeWindowSize: auth.challenge.windowSize });
  const mode = transaction.card.challenge;
  sendHtml(
    res,
    200,
    challengePage({
      acsTransID: auth.acsTransID,
      ...(sessionData === undefined ? {} : { sessionData }),
      ...(mode === 'manual' ? {} : { auto: mode === 'auto-pass' ? 'pass' : 'fail' }),
    }),
  );
}

function answer(form: URLSearchParams, res: ServerResponse, options: AcsOptions): void {
  const transaction = options.transactions.byAcsTransID(form.get('acsTransID') ?? '');
  const auth = transaction?.auth;
  if (!transaction || !auth?.challenge || auth.challenge.creqAt === undefined) return sendHtml(res, 400, acsError('Unknown challenge.'));
  if (auth.challenge.answered) return sendHtml(res, 409, acsError('This verification has already ended.'));
  auth.challenge.answered = true;
  const cancelled = form.get('action') === 'cancel';
  const mode = transaction.card.challenge;
  const passed = !cancelled && (mode === 'auto-pass' || (mode === 'manual' && form.get('code') === CHALLENGE_CODE));
  const transStatus = passed ? 'Y' : 'N';
  // The ACS tells the 3DS Server first (RReq through the DS), then sends the browser on (CRes).
  deliverRreq(transaction, transStatus, options, cancelled ? '01' : undefined);
  const json = JSON.stringify(messages.cres(transaction, transStatus));
  const cres = Buffer.from(json).toString(options.paddedCres ? 'base64' : 'base64url');
  const value = options.paddedCres ? cres.replace(/\+/g, '-').replace(/\//g, '_') : cres;
  const sessionData = form.get('threeDSSessionData');
  sendHtml(
    res,
    200,
    autoPost(
      'Returning to the shop',
      auth.notificationURL,
      { cres: value, ...(sessionData === null ? {} : { threeDSSessionData: sessionData }) },
      passed ? 'Verified. Returning to the shop…' : 'Not verified. Returning to the shop…',
    ),
  );
}
