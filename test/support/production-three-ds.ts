import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { startLocalSecretsServer, type LocalSecretsServer } from '../fakes/secrets-server.js';
import { startFakeThreeDsServer, type FakeThreeDsServer } from '../fakes/three-ds-server/index.js';

/**
 * A production world for the payment functions, set up BEFORE they are imported (call it from
 * `await vi.hoisted(…)`): the fake 3DS Server (test/fakes/three-ds-server) as THREE_DS_SERVER_URL,
 * its API key in the local secrets server under an SSM ARN (THREE_DS_SERVER_API_KEY_ARN,
 * SSM_ENDPOINT), a "visa" network whose checkout responses production merchants accept
 * (NETWORK_JWKS_URLS), production merchants authorized by the sandbox acquirer
 * (PRODUCTION_ACQUIRER=sandbox), and short 3DS deadlines so that a hung 3DS Server costs a test
 * little time.
 */
export const API_KEY_ARN = 'arn:aws:ssm:us-east-1:123456789012:parameter/click-to-pay/three-ds-api-key';
export const THREE_DS_DEADLINE_MS = 1_500;

export interface ProductionThreeDs {
  fake: FakeThreeDsServer;
  secrets: LocalSecretsServer;
  /** Private signing JWK of the "visa" network the service trusts here. */
  networkKey: JWK;
  close(): Promise<void>;
}

export async function startProductionThreeDs(): Promise<ProductionThreeDs> {
  const fake = await startFakeThreeDsServer({ creqTimeoutMs: 5_000 });
  const secrets = await startLocalSecretsServer();
  secrets.put(API_KEY_ARN, JSON.stringify({ apiKey: fake.apiKey }));
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = `visa-prod-${crypto.randomUUID()}`;
  const networkKey = { ...(await exportJWK(privateKey)), kid, alg: 'RS256' };
  const jwksPath = join(process.env.TEST_DATA_DIR!, `visa-network-${kid}.json`);
  writeFileSync(jwksPath, JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }] }));
  Object.assign(process.env, {
    NETWORK_JWKS_URLS: [process.env.NETWORK_JWKS_URLS, `visa=file://${jwksPath}`].filter(Boolean).join(','),
    THREE_DS_SERVER_URL: fake.apiUrl,
    THREE_DS_SERVER_API_KEY_ARN: API_KEY_ARN,
    SSM_ENDPOINT: secrets.url,
    PRODUCTION_ACQUIRER: 'sandbox',
    THREE_DS_PREPARE_TIMEOUT_MS: String(THREE_DS_DEADLINE_MS),
    THREE_DS_AUTH_TIMEOUT_MS: String(THREE_DS_DEADLINE_MS),
    THREE_DS_RESULT_TIMEOUT_MS: String(THREE_DS_DEADLINE_MS),
  });
  return { fake, secrets, networkKey, close: async () => void (await Promise.all([fake.close(), secrets.close()])) };
}

/** 4.7 `threeDsRequestor` of a merchant taking Visa and Mastercard. */
export const THREE_DS_REQUESTOR = {
  requestorUrl: 'https://shop.example.com',
  merchantName: 'Demo Shop',
  merchantCountryCode: '784',
  mcc: '5411',
  brands: {
    visa: { requestorId: 'VISA-REQ-0001', requestorName: 'Demo Gateway', acquirerBin: '438309', acquirerMerchantId: '00002000000', acquirerCountryCode: '784' },
    mastercard: {
      requestorId: 'MC-REQ-0001',
      requestorName: 'Demo Gateway',
      acquirerBin: '512345',
      acquirerMerchantId: '00002000000',
      acquirerCountryCode: '784',
    },
  },
};

/** What the hosted page sends as `browserInfo` (web/src/three-ds-browser.ts). */
export const BROWSER_INFO = {
  acceptHeader: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  language: 'en-GB',
  colorDepth: 24,
  screenHeight: 900,
  screenWidth: 1280,
  timeZoneOffset: -240,
  javaEnabled: false,
  challengeWindowSize: '03',
} as const;

export const BROWSER_HEADERS = {
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  'accept-language': 'en-GB,en;q=0.9',
};

/** One form of an HTML page: where it posts and its fields, as a browser would submit them. */
export function formOf(html: string, base: string): { action: string; fields: URLSearchParams } {
  const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(html);
  if (!form) throw new Error('no form on the page');
  const fields = new URLSearchParams();
  for (const input of form[2]!.matchAll(/<input[^>]*name="([^"]*)"[^>]*value="([^"]*)"[^>]*>/g)) fields.set(unescape(input[1]!), unescape(input[2]!));
  return { action: new URL(unescape(form[1]!), base).href, fields };
}

const unescape = (value: string) => value.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&');

export async function postForm(url: string, fields: URLSearchParams | Record<string, string>): Promise<{ status: number; html: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields as Record<string, string>).toString(),
  });
  return { status: response.status, html: await response.text() };
}
