/**
 * `npm run -s sandbox:checkout -- --order ORDER [--outlet OUTLET] [--eci 07] [--scheme visa|mastercard] [--card ID]`
 *
 * Prints (stdout, nothing else) a request body for SPEC 4.3: a checkout response as the
 * sandbox network's SRC system would produce it — JWS signed with the sandbox network key,
 * payload encrypted to the service's *current* key fetched from 4.2 of the running service.
 * On stderr it prints a ready curl command for the order's payment.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { PERMISSIONS } from '../../lib/core/auth/principal.js';
import { buildSandboxCheckoutResponse } from '../../lib/adapters/sandbox/checkout-response.js';
import { SANDBOX_CARDS, sandboxCard } from '../../lib/adapters/sandbox/sandbox-cards.js';
import { parseCommandLine, refuseNpmBannerOnStdout, usageError } from './cli.js';
import { ensureDevIdentity, signDevToken } from './dev-identity.js';
import { ensureSandboxNetwork, sandboxSigningKeys } from './sandbox-network.js';

const USAGE = `
Usage: npm run -s sandbox:checkout -- --order ORDER [--outlet OUTLET] [--scheme visa|mastercard] [--card ID] [--eci NN] [--alg RS256|ES256] [--api URL]

Prints on stdout the body of a Click to Pay payment (SPEC 4.3) for ORDER: what the Click to Pay
SDK's checkout() resolves with, signed by the sandbox network and encrypted to the running
service's current payload key. On stderr: a ready curl command. \`npm start\` must be running.
(-s: npm's "> sandbox:checkout" banner would go to stdout too; redirected without it, this refuses.)

  --order ORDER        the orderRef from POST …/orders (required)
  --outlet OUTLET      default: the demo outlet of .data/demo.json
  --scheme S           visa (default) or mastercard
  --card ID            ${SANDBOX_CARDS.map((c) => c.id).join(', ')}
  --eci NN             override the ECI, e.g. 07 to force a 3DS challenge
  --alg A              the network's JWS algorithm: RS256 (default) or ES256
  --api URL            the service (default: .data/demo.json's baseUrl, else http://localhost:3000)
  --data-dir DIR       the local service's data directory (default $DATA_DIR or .data)
  -h, --help           this text
`;

const values = parseCommandLine('sandbox:checkout', USAGE, {
  order: { type: 'string' },
  outlet: { type: 'string' },
  eci: { type: 'string' },
  scheme: { type: 'string', default: 'visa' },
  card: { type: 'string' },
  alg: { type: 'string', default: 'RS256' },
  api: { type: 'string' },
  'data-dir': { type: 'string', default: process.env.DATA_DIR ?? '.data' },
});
refuseNpmBannerOnStdout('sandbox:checkout');

function fail(message: string): never {
  return usageError('sandbox:checkout', message);
}

const dataDir = resolve(values['data-dir']!);
const demo = JSON.parse(await readFile(`${dataDir}/demo.json`, 'utf8').catch(() => '{}')) as { baseUrl?: string; outletId?: string };
const api = (values.api ?? demo.baseUrl ?? 'http://localhost:3000').replace(/\/+$/, '');
const outlet = values.outlet ?? demo.outletId;
if (!values.order) fail('--order ORDER is required (the orderRef from POST …/orders)');
if (!outlet) fail('--outlet OUTLET is required (no .data/demo.json to default it from)');
if (values.scheme !== 'visa' && values.scheme !== 'mastercard') fail('--scheme must be visa or mastercard');
if (values.eci !== undefined && !/^\d{2}$/.test(values.eci)) fail('--eci must be two digits, e.g. 05 or 07');
if (values.alg !== 'RS256' && values.alg !== 'ES256') fail('--alg must be RS256 or ES256');
const cardId = values.card ?? (values.scheme === 'mastercard' ? 'mastercard-world' : 'visa-classic');
if (!SANDBOX_CARDS.some((card) => card.id === cardId)) fail(`--card must be one of ${SANDBOX_CARDS.map((c) => c.id).join(', ')}`);

const token = await signDevToken(await ensureDevIdentity(dataDir), { realm: 'platform', permissions: [...PERMISSIONS] }, 300);
const get = async (path: string) => {
  const response = await fetch(`${api}${path}`, { headers: { Authorization: `Bearer ${token}` } }).catch(() => undefined);
  if (!response?.ok) fail(`GET ${api}${path} failed (${response?.status ?? 'no answer'}): is \`npm start\` running?`);
  return response.json() as Promise<Record<string, any>>;
};
const keys = await get('/config/configs/vctp/encryption-keys');
const order = await get(`/transactions/outlets/${encodeURIComponent(outlet)}/orders/${encodeURIComponent(values.order)}`);
const recipientKey = keys.keys.find((key: { kid: string }) => key.kid === keys.encryptionKeyId);
const signingKey = (await sandboxSigningKeys(await ensureSandboxNetwork(dataDir))).find((key) => key.alg === values.alg)!;

const sdkResult = await buildSandboxCheckoutResponse({
  card: sandboxCard(cardId),
  signingKey,
  recipientKey,
  scheme: values.scheme,
  ...(values.eci ? { eci: values.eci } : {}),
});
process.stdout.write(`${JSON.stringify({ checkoutResponse: sdkResult })}\n`);

const payment = (order.payments as { paymentRef: string; state: string }[]).find((p) => p.state === 'STARTED') ?? order.payments[0];
process.stderr.write(
  `\nPay with it (valid for ${Math.round(900 / 60)} minutes):\n` +
    `  BODY=$(npm run -s sandbox:checkout -- --order ${values.order})\n` +
    `  curl -s -X POST '${api}/transactions/outlets/${outlet}/orders/${values.order}/payments/${payment.paymentRef}/click-to-pay' \\\n` +
    `       -H "Authorization: Bearer $TENANT_TOKEN" -H 'Content-Type: application/json' --data "$BODY"\n\n`,
);
