import type { AuthenticationRequest, BrowserInfo, RequestorProfile } from '../../../core/ports/three-ds-server.js';
import { ThreeDsServerCallError } from '../../../core/ports/three-ds-server-error.js';
import { acceptLanguages, browserFields } from './browser-fields.js';
import { DIRECTORY_SERVER } from './ds.js';
import { builtOnFirstUse } from './field-tables/built-on-first-use.js';
import { schemaOf } from './field-tables/field-schema.js';
import { AREQ, type MessageVersion } from './field-tables/tables.js';
import { expiryYymm, purchaseFields } from './purchase.js';

/**
 * The AReq of a browser payment (deviceChannel 02, messageCategory 01) for the version the
 * card range and this service share. What differs between the versions (differences_v220_v231.rst,
 * areq_220 vs areq_231):
 * - 2.3.1 requires `acceptLanguage` (array, from the Accept-Language header),
 *   `acquirerCountryCode` and `acquirerCountryCodeSource` (01: set by the 3DS Server side);
 * - `threeDSRequestorChallengeInd` is a string in 2.2.0 and an array in 2.3.1;
 * - 2.3.1's notificationURL and threeDSRequestorURL must be https (format urlHttps).
 *
 * acctNumber is the network token and cardExpiryDate its expiry (areq tables: "May be
 * represented by PAN, token"; Visa and Mastercard require the expiry). The builder checks its
 * own result against the published table before anything is sent: a request that breaks it is
 * refused here (kind `not-sent`), naming the fields, never their values.
 */
/** An authentication request with what this server requires (ThreeDsServer.requires). */
export type CompleteAuthenticationRequest = AuthenticationRequest & { requestor: RequestorProfile; browser: BrowserInfo };

export function buildAReq(
  request: CompleteAuthenticationRequest,
  options: { loopbackHttpAllowed?: boolean } = {},
): Record<string, unknown> & { threeDSServerTransID: string; messageVersion: MessageVersion } {
  const { requestor, browser, account } = request;
  const common = {
    messageType: 'AReq',
    messageVersion: request.messageVersion,
    messageCategory: '01',
    deviceChannel: '02',
    threeDSServerTransID: request.transactionId,
    threeDSCompInd: request.threeDSCompInd,
    // 01 payment transaction; transType 01 goods/service purchase (Visa requires it).
    threeDSRequestorAuthenticationInd: '01',
    transType: '01',
    threeDSRequestorID: requestor.threeDSRequestorID,
    threeDSRequestorName: requestor.threeDSRequestorName,
    threeDSRequestorURL: requestor.threeDSRequestorURL,
    acquirerBIN: requestor.acquirerBIN,
    acquirerMerchantID: requestor.acquirerMerchantID,
    mcc: requestor.mcc,
    merchantName: requestor.merchantName,
    merchantCountryCode: requestor.merchantCountryCode,
    ds: DIRECTORY_SERVER[request.brand],
    acctNumber: account.number,
    cardExpiryDate: expiryYymm(account.expiryYear, account.expiryMonth),
    ...purchaseFields(request.amount, request.purchaseDate),
    notificationURL: request.notificationUrl,
    ...browserFields(browser),
    ...(request.email && fitsEmail(request.email) ? { email: request.email } : {}),
  };
  // 01: no preference — the ACS decides whether to challenge.
  const areq =
    request.messageVersion === '2.2.0'
      ? { ...common, threeDSRequestorChallengeInd: '01' }
      : {
          ...common,
          threeDSRequestorChallengeInd: ['01'],
          acceptLanguage: acceptLanguages(browser.acceptLanguage, browser.language),
          acquirerCountryCode: requestor.acquirerCountryCode,
          acquirerCountryCodeSource: '01',
        };
  assertPublishedShape(areq, request.messageVersion, options.loopbackHttpAllowed ?? false);
  return areq;
}

/**
 * The order's e-mail is the merchant's free text: one the table would refuse (areq tables: email,
 * ≤ 254) is left out rather than costing the shopper the authentication.
 */
const fitsEmail = (email: string) => email.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);

/** Per version, as published or with loopback http admitted: built at the first AReq of each. */
const areqSchema = builtOnFirstUse((key: `${MessageVersion} ${'published' | 'loopback'}`) => {
  const [version, variant] = key.split(' ') as [MessageVersion, 'published' | 'loopback'];
  return schemaOf(AREQ[version], { unknownFields: 'refuse', loopbackHttpAllowed: variant === 'loopback' });
});

/**
 * The 2.3.1 table wants https notification and requestor URLs; a local demo or test whose
 * endpoints are loopback HTTP opts in per server (server.ts `loopbackHttpAllowed`).
 */
export function assertPublishedShape(areq: Record<string, unknown>, version: MessageVersion, loopbackHttpAllowed: boolean): void {
  const parsed = areqSchema(`${version} ${loopbackHttpAllowed ? 'loopback' : 'published'}`).safeParse(areq);
  if (parsed.success) return;
  const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || '(message)'))].join(', ');
  throw new ThreeDsServerCallError('not-sent', '/auth', { reason: `the AReq breaks the published ${version} table (${fields})` });
}
