import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserInfo, CardBrand, MessageVersion, RequestorProfile } from '../../lib/core/ports/three-ds-server.js';
import type { CompleteAuthenticationRequest as AuthenticationRequest } from '../../lib/adapters/three-ds/threedsecure-io/areq.js';
import { ThreeDSecureIoServer } from '../../lib/adapters/three-ds/threedsecure-io/server.js';
import { startFakeThreeDsServer, testAccount, type FakeThreeDsServer, type FakeThreeDsServerOptions } from '../fakes/three-ds-server/index.js';

export const REQUESTOR: RequestorProfile = {
  threeDSRequestorID: 'VISA-REQ-0001',
  threeDSRequestorName: 'Demo Gateway',
  threeDSRequestorURL: 'https://shop.example.com',
  mcc: '5411',
  merchantName: 'Demo Shop',
  merchantCountryCode: '784',
  acquirerBIN: '438309',
  acquirerMerchantID: '00002000000',
  acquirerCountryCode: '784',
};

export const BROWSER: BrowserInfo = {
  acceptHeader: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  acceptLanguage: 'en-GB,en;q=0.9,ar;q=0.8',
  ip: '203.0.113.7',
  language: 'en-GB',
  colorDepth: 24,
  screenHeight: 1080,
  screenWidth: 1920,
  timeZoneOffset: -240,
  javaEnabled: false,
  challengeWindowSize: '05',
};

/** Captures every JSON body the adapter sends, so tests can read the AReq as it left. */
export function recordingFetch(): { fetch: typeof fetch; sent: { url: string; body: Record<string, unknown> }[] } {
  const sent: { url: string; body: Record<string, unknown> }[] = [];
  return {
    sent,
    fetch: async (input, init) => {
      sent.push({ url: String(input), body: JSON.parse(String(init?.body)) as Record<string, unknown> });
      return fetch(input, init);
    },
  };
}

/** A loopback endpoint that keeps the form posts it receives (the service's notification URLs). */
export interface FormSink {
  url: string;
  posts: { path: string; form: URLSearchParams }[];
  close(): Promise<void>;
}

export async function startFormSink(): Promise<FormSink> {
  const posts: FormSink['posts'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      posts.push({ path: req.url ?? '', form: new URLSearchParams(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>ok</p>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface Harness {
  fake: FakeThreeDsServer;
  sink: FormSink;
  server: ThreeDSecureIoServer;
  sent: { url: string; body: Record<string, unknown> }[];
  close(): Promise<void>;
}

export async function startHarness(options: FakeThreeDsServerOptions = {}): Promise<Harness> {
  const fake = await startFakeThreeDsServer(options);
  const sink = await startFormSink();
  const recording = recordingFetch();
  const server = new ThreeDSecureIoServer({ baseUrl: fake.apiUrl, apiKey: fake.apiKey, fetch: recording.fetch, loopbackHttpAllowed: true });
  return { fake, sink, server, sent: recording.sent, close: async () => Promise.all([fake.close(), sink.close()]).then(() => undefined) };
}

export const seconds = (n: number) => AbortSignal.timeout(n * 1000);

export function account(last4: string) {
  return { number: testAccount(last4), expiryMonth: '09', expiryYear: '2031' };
}

/** preauth then the request for auth, as the core would build it. */
export async function prepared(h: Harness, last4: string, overrides: Partial<AuthenticationRequest> = {}, brand: CardBrand = 'VISA') {
  const acct = account(last4);
  const preparation = await h.server.prepare({ brand, account: acct, methodNotificationUrl: `${h.sink.url}/method-notification` }, seconds(5));
  if (preparation.kind !== 'ready') throw new Error(`not ready: ${preparation.kind}`);
  const request: AuthenticationRequest = {
    transactionId: preparation.transactionId,
    messageVersion: preparation.messageVersion,
    brand,
    account: acct,
    amount: { value: 1000, currencyCode: 'AED' },
    purchaseDate: new Date('2026-11-25T10:11:12Z'),
    requestor: REQUESTOR,
    browser: BROWSER,
    threeDSCompInd: preparation.method ? 'N' : 'U',
    notificationUrl: `${h.sink.url}/checkout/3ds-notification`,
    ...overrides,
  };
  return { preparation, request };
}

export const versionOf = (last4: string): MessageVersion => (last4.startsWith('3') ? '2.3.1' : '2.2.0');

/** The one form of an HTML page: where it posts and its fields (what a browser would submit). */
export function formOf(html: string, base: string): { action: string; fields: URLSearchParams } {
  const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(html);
  if (!form) throw new Error('no form on the page');
  const fields = new URLSearchParams();
  for (const input of form[2]!.matchAll(/<input[^>]*name="([^"]*)"[^>]*value="([^"]*)"[^>]*>/g)) fields.set(unescape(input[1]!), unescape(input[2]!));
  return { action: new URL(unescape(form[1]!), base).href, fields };
}

const unescape = (value: string) => value.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

export async function postForm(url: string, fields: URLSearchParams | Record<string, string>): Promise<{ status: number; html: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields as Record<string, string>).toString(),
  });
  return { status: response.status, html: await response.text() };
}
