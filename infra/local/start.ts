/**
 * `npm start` — the whole local service on one port (SPEC §7): dynalite and the local KMS
 * server (data under .data/), tables and keys on first start, a seeded demo
 * platform/tenant/merchant/outlet, and the API plus hosted page through serverless-offline
 * running the same handlers that deploy to Lambda. Prints URLs and demo tokens.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { freePort, isPortFree } from './ports.js';
import type { DemoFile } from './demo-file.js';
import { startLocalStack, type LocalStack } from './stack.js';
import { seedDemo, type DemoWorld } from './seed-demo.js';
import { buildWeb } from './build-web.js';
import { signDevToken } from './dev-identity.js';

const port = Number(process.env.PORT ?? 3000);
const dataDir = resolve(process.env.DATA_DIR ?? '.data');
const baseUrl = process.env.PUBLIC_BASE_URL ?? `http://localhost:${port}`;
let stack: LocalStack | undefined;
let offline: ChildProcess | undefined;

function fail(message: string): never {
  process.stderr.write(`\nnpm start: ${message}\n\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  if (!Number.isInteger(port) || port <= 0 || port > 65535) fail(`PORT must be a TCP port number, not "${process.env.PORT}".`);
  if (!(await isPortFree(port))) {
    fail(`port ${port} is already in use — is another \`npm start\` running? Stop it, or start on another port: PORT=3100 npm start`);
  }
  try {
    stack = await startLocalStack({ dataDir, persist: true });
  } catch (error) {
    const text = String((error as Error)?.message ?? error);
    if (/lock/i.test(text)) fail(`the data directory ${dataDir} is in use by another process (another \`npm start\`?).`);
    throw error;
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...stack.env,
    PUBLIC_BASE_URL: baseUrl,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    SLS_TELEMETRY_DISABLED: '1',
    SLS_NOTIFICATIONS_MODE: 'off',
    OFFLINE_LAMBDA_PORT: String(await freePort()),
    ESBUILD_WORK_FOLDER: relative(process.cwd(), join(dataDir, 'esbuild')),
  };
  Object.assign(process.env, env);
  await buildWeb(); // the hosted checkout page (web/dist), served by the checkoutPage function
  const demo = await seedDemo();

  offline = spawn(resolve('node_modules/.bin/osls'), ['offline', 'start', '--stage', 'local', '--httpPort', String(port)], {
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const offlineTail: string[] = [];
  offline.stdout!.on('data', (chunk: Buffer) => {
    // Handler logs are JSON lines: show them. serverless-offline's own chatter (a route table
    // per function) is kept aside and shown only if it fails.
    for (const line of chunk.toString().split('\n')) {
      if (line.startsWith('{')) process.stdout.write(line + '\n');
      else if (line.trim()) offlineTail.push(line) > 60 && offlineTail.shift();
    }
  });
  offline.on('exit', (code) => {
    if (!shuttingDown) fail(`serverless-offline exited (code ${code}):\n${offlineTail.join('\n')}`);
  });
  await waitForApi();
  await printBanner(demo);
}

async function printBanner(demo: DemoWorld): Promise<void> {
  const identity = stack!.identity;
  const platform = await signDevToken(identity, { realm: 'platform', permissions: ['VIEW_UCTP_WALLET_CERTIFICATE', 'CREATE_AUTHORIZATION', 'VIEW_ORDER', 'CREATE_ORDER'] }, 12 * 3600);
  const tenant = await signDevToken(
    identity,
    { realm: 'tenant', tenantRef: demo.tenantRef, permissions: ['VIEW_UCTP_WALLET_CERTIFICATE', 'CREATE_AUTHORIZATION', 'VIEW_ORDER', 'CREATE_ORDER'] },
    12 * 3600,
  );
  // The local endpoints are in there too, for tools and tests that inspect the stored state.
  const local = { dynamoEndpoint: stack!.dynamoEndpoint, kmsEndpoint: stack!.kmsEndpoint, sessionsTable: stack!.env.SESSIONS_TABLE!, ordersTable: stack!.env.ORDERS_TABLE! };
  const file: DemoFile = { ...demo, baseUrl, tokens: { platform, tenant }, local };
  await writeFile(`${dataDir}/demo.json`, JSON.stringify(file, null, 2), { mode: 0o600 });
  const lines = [
    '',
    `Click to Pay service running at ${baseUrl}`,
    '',
    `  API                 ${baseUrl}`,
    `  Encryption keys     ${baseUrl}/config/configs/vctp/encryption-keys`,
    `  Merchant config     ${baseUrl}/config/merchants/${demo.merchantRef}/configs/vctp`,
    `  Orders              ${baseUrl}/transactions/outlets/${demo.outletId}/orders`,
    `  Hosted checkout     ${demo.checkoutUrl}`,
    '',
    `  demo tenant ${demo.tenantRef} · merchant ${demo.merchantRef} · outlet ${demo.outletId}`,
    `  DynamoDB (dynalite) ${stack!.dynamoEndpoint}   KMS ${stack!.kmsEndpoint}   data ${dataDir}`,
    '',
    '  Demo tokens (12 h; more with `npm run token -- …`; also in .data/demo.json):',
    `  PLATFORM_TOKEN=${platform}`,
    '',
    `  TENANT_TOKEN=${tenant}`,
    '',
    '  Try:',
    `  curl -s -X POST ${baseUrl}/transactions/outlets/${demo.outletId}/orders -H "Authorization: Bearer $TENANT_TOKEN" \\`,
    `       -H 'Content-Type: application/json' -d '{"action":"AUTH","amount":{"currencyCode":"AED","value":1000}}'`,
    '',
    'Ctrl-C stops everything; data stays in .data/ for the next start.',
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

async function waitForApi(): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/__ready`, { signal: AbortSignal.timeout(2000) });
      if (response.status === 404) return; // the fallback route answers: the API is up
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  fail('the API did not come up within 180 s.');
}



let shuttingDown = false;
async function shutdown(code = 0): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  offline?.kill('SIGTERM');
  await stack?.close();
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

main().catch(async (error: unknown) => {
  process.stderr.write(`npm start failed: ${(error as Error)?.stack ?? error}\n`);
  await shutdown(1);
});
