import { createHash, createPublicKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { JWK } from 'jose';
import { completedCheckout } from './fake-checkout-response.js';
import { answer, type Body } from './fake-network-api.js';
import { dcfPage } from './dcf-page.js';
import { createFakeNetworkKeys, type FakeNetworkName } from './fake-network-keys.js';
import { FakeNetworkError, FakeNetworkState } from './fake-network-state.js';

/**
 * One fake card network on its own loopback origin (test only): its SDK script, its DCF
 * screen, the key it publishes for new cards, and the JSON calls its script makes.
 *
 * Paths mirror the real ones where the references give them: Visa's sdk.js under
 * /checkout-widget/resources/js/integration/v2/ (developer.visa.com "JavaScript Reference -
 * Unified Click to Pay"), Mastercard's lib.js under /srci/integration/2/ and its FPAN
 * encryption key at /keys/mcs/fpanEncryption (developer.mastercard.com "Perform Encryption",
 * step 2; the format it is served in is not shown there: a JWKS here). Visa does not publish
 * where the card-encryption key lives (it is handed to the SRCi at onboarding): /keys/card-encryption.
 */
export interface FakeNetwork {
  name: FakeNetworkName;
  origin: string;
  sdkUrl: string;
  cardKeyUrl: string;
  /** file: URL of the public signing JWKS, for NETWORK_JWKS_URLS. */
  signingJwksUrl: string;
  /**
   * What the merchant registers with the network at onboarding: the key checkout payloads are
   * encrypted to. The network then names it by its own id in the JWE kid (networkKidOf).
   */
  registerPayloadKey(key: JWK): void;
  close(): Promise<void>;
}

const SCRIPT_PATH: Record<FakeNetworkName, string> = {
  visa: '/checkout-widget/resources/js/integration/v2/sdk.js',
  mastercard: '/srci/integration/2/lib.js',
};
const CARD_KEY_PATH: Record<FakeNetworkName, string> = { visa: '/keys/card-encryption', mastercard: '/keys/mcs/fpanEncryption' };
const SCRIPT_FILE: Record<FakeNetworkName, string> = { visa: 'visa-sdk.js', mastercard: 'mastercard-sdk.js' };

export async function startFakeNetwork(name: FakeNetworkName, keysDir: string): Promise<FakeNetwork> {
  const keys = await createFakeNetworkKeys(name, keysDir);
  const state = new FakeNetworkState(name, keys.cardEncryption.privateKey);
  const script = await readFile(fileURLToPath(new URL(SCRIPT_FILE[name], import.meta.url)), 'utf8');
  let payloadKey: JWK | undefined;

  const server: Server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) =>
      error instanceof FakeNetworkError ? send(response, error.status, { reason: error.reason }) : send(response, 500, { reason: 'SERVICE_ERROR' }),
    );
  });
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://fake');
    cors(request, response);
    if (request.method === 'OPTIONS') return void response.writeHead(204).end();
    if (request.method === 'GET' && url.pathname === SCRIPT_PATH[name]) return raw(response, 'text/javascript; charset=utf-8', script);
    if (request.method === 'GET' && url.pathname === CARD_KEY_PATH[name]) return send(response, 200, { keys: [keys.cardEncryption.publicKey] });
    if (request.method === 'GET' && url.pathname === '/dcf') {
      const checkout = state.checkout(url.searchParams.get('checkout'));
      const mode = url.searchParams.get('mode') === 'window' ? 'window' : 'frame';
      return raw(response, 'text/html; charset=utf-8', dcfPage(name, checkout, url.searchParams.get('parent') ?? '', mode));
    }
    if (request.method === 'POST' && url.pathname === '/api/confirm') {
      const checkout = state.checkout((await json(request)).checkout);
      if (!payloadKey) throw new FakeNetworkError('MERCHANT_KEY_NOT_REGISTERED', 500);
      return send(response, 200, await completedCheckout({ network: name, checkout, signingKey: keys.signing, recipientKey: payloadKey }));
    }
    const op = /^\/api\/([A-Za-z]+)$/.exec(url.pathname)?.[1];
    if (request.method === 'POST' && op) {
      const result = await answer(name, state, op, await json(request));
      return send(response, result.status, result.body);
    }
    send(response, 404, { reason: 'NOT_FOUND' });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref(); // never what keeps the test runner alive
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    name,
    origin,
    sdkUrl: `${origin}${SCRIPT_PATH[name]}`,
    cardKeyUrl: `${origin}${CARD_KEY_PATH[name]}`,
    signingJwksUrl: keys.signingJwksUrl,
    registerPayloadKey: (key) => {
      payloadKey = { ...key, kid: networkKidOf(name, key) };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The JWE kid a network assigns to a registered key (issue 10, SPEC §4.3 step 5): Visa
 * `<certificate serial>|<subject DN>` — a fixed, made-up certificate here, registered with the
 * stack beforehand (PAYLOAD_KEY_NETWORK_KIDS, test/e2e/global-setup.ts); Mastercard a key
 * fingerprint — here the SHA-256 of the key's SubjectPublicKeyInfo, never registered, so the
 * service finds the key by trying its payload keys. Neither reference says how the value is
 * derived beyond that.
 */
export const VISA_ASSIGNED_KID = '7A0F5E12C3B94D08|CN=click-to-pay-e2e.example,O=Fake Gateway,C=AE';

function networkKidOf(name: FakeNetworkName, key: JWK): string {
  if (name === 'visa') return VISA_ASSIGNED_KID;
  const spki = createPublicKey({ key: { kty: key.kty!, n: key.n!, e: key.e! }, format: 'jwk' }).export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('hex');
}

/** The page calls the SDK origin cross-origin (fetch of the card key, the SDK's JSON calls). */
function cors(request: IncomingMessage, response: ServerResponse): void {
  const origin = request.headers.origin;
  if (!origin) return;
  response.setHeader('Access-Control-Allow-Origin', origin);
  response.setHeader('Access-Control-Allow-Methods', 'GET, POST');
  response.setHeader('Access-Control-Allow-Headers', 'Content-Type');
  response.setHeader('Vary', 'Origin');
}

async function json(request: IncomingMessage): Promise<Body> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Body) : {};
  } catch {
    return {};
  }
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(JSON.stringify(body));
}

function raw(response: ServerResponse, type: string, body: string): void {
  response.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-store' }).end(body);
}
