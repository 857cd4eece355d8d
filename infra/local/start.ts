/**
 * `npm start` — the whole local service on one port (SPEC §7): dynalite and the local KMS
 * server, each a process of its own (data under .data/), tables and keys on first start, a
 * seeded demo platform/tenant/merchant/outlet, and the API plus hosted page through
 * serverless-offline running the same handlers that deploy to Lambda. Prints URLs, demo
 * tokens and the pids of the local dependencies (freeze one with kill -STOP to watch 503s).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { freePort, isPortFree } from './ports.js';
import type { DemoFile } from './demo-file.js';
import { startLocalStack, type LocalStack } from './stack.js';
import { seedDemo, type DemoWorld } from './seed-demo.js';
import { buildWeb } from './build-web.js';
import { signDevToken } from './dev-identity.js';
import { PERMISSIONS } from '../../lib/core/auth/principal.js';
import { parseDynamoEngine, type DynamoEngine } from './local-processes.js';
import { startLocalSchedule, type LocalSchedule } from './local-schedule.js';
import { parseCommandLine } from './cli.js';
import { startPersistentAcsOrigin, type AcsOrigin } from './acs-origin.js';
import { localCorsConfiguration, startHttpApiEdge, type CorsConfiguration, type HttpApiEdge } from './http-api-edge.js';
import { processorFakesWanted, startLocalProcessorFakes, type LocalProcessorFakes } from './processor-fakes.js';
import { localThreeDsServerMode, startLocalFakeThreeDs, type LocalFakeThreeDs } from './fake-three-ds.js';

parseCommandLine(
  'npm start',
  `
Usage: npm start          (PORT=3100 npm start, DATA_DIR=… npm start)

Starts the whole local service on http://localhost:$PORT (default 3000): DynamoDB (dynalite,
or DynamoDB Local with LOCAL_DYNAMODB_ENGINE=dynamodb-local) and the KMS server as processes of
their own, the API, the hosted checkout page and the sandbox. Data lives in $DATA_DIR (default
.data). Prints the URLs, demo tokens and a demo checkout link. Ctrl-C stops everything.
No CORS unless CORS_ALLOWED_ORIGINS lists origins (the corsAllowedOrigins param of a deployment).
PROCESSOR_FAKES=1 also starts the Adyen and Checkout.com fakes and onboards one production demo
merchant per processor (docs/operating/local.md, "Production merchants locally").
LOCAL_THREE_DS_SERVER=fake also runs the fake 3DS Server + ACS (test/fakes/three-ds-server) as
the production 3DS Server: production merchants step up through it (docs/integrating/three-ds.md).
`,
  {},
);

const port = Number(process.env.PORT ?? 3000);
const dataDir = resolve(process.env.DATA_DIR ?? '.data');
const baseUrl = process.env.PUBLIC_BASE_URL ?? `http://localhost:${port}`;
let stack: LocalStack | undefined;
let offline: ChildProcess | undefined;
let schedule: LocalSchedule | undefined;
let acsOrigin: AcsOrigin | undefined;
let edge: HttpApiEdge | undefined;
let offlinePort = 0;
let cors: false | CorsConfiguration = false;
let dynamoEngine: DynamoEngine = 'dynalite';
let demoFile: Omit<DemoFile, 'local'> | undefined;
let apiReady = false;
/** serverless-offline's lines about the scheduled webhook worker (its own schedule and ours). */
const SCHEDULE_CHATTER = /^\(λ: webhookDelivery\) RequestId: |^Successfully invoked scheduled function: \[webhookDelivery\]/;
let processorFakes: LocalProcessorFakes | undefined;
let threeDs: LocalFakeThreeDs | undefined;
let threeDsMode: 'fake' | undefined;

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
    dynamoEngine = parseDynamoEngine(process.env.LOCAL_DYNAMODB_ENGINE, 'LOCAL_DYNAMODB_ENGINE');
    // The deployment's corsAllowedOrigins rules: `*`, `null`, paths and plain http are refused.
    cors = localCorsConfiguration(process.env.CORS_ALLOWED_ORIGINS);
    threeDsMode = localThreeDsServerMode(process.env.LOCAL_THREE_DS_SERVER);
  } catch (error) {
    fail((error as Error).message.replace('corsAllowedOrigins', 'CORS_ALLOWED_ORIGINS'));
  }
  watchAncestors();
  try {
    stack = await startLocalStack({
      dataDir,
      persist: true,
      dynamoEngine,
      restart: true,
      log: (line) => process.stderr.write(`npm start: ${line}\n`),
      // The pid changed: keep .data/demo.json true for people and tests that look it up.
      onRestart: () => void writeDemoFile().catch(() => undefined),
    });
  } catch (error) {
    const text = String((error as Error)?.message ?? error);
    if (/lock/i.test(text)) fail(`the data directory ${dataDir} is in use by another process (another \`npm start\`?).`);
    throw error;
  }
  // The sandbox ACS on an origin of its own (docs/integrating/three-ds.md), unless one is given;
  // the same one as last time, since waiting payments carry its URL.
  if (!process.env.SANDBOX_ACS_BASE_URL) acsOrigin = await startPersistentAcsOrigin(port, dataDir, (line) => process.stderr.write(`npm start: ${line}\n`));
  // A production-shaped 3DS step-up (LOCAL_THREE_DS_SERVER=fake): the fake 3DS Server as THREE_DS_SERVER_URL.
  if (threeDsMode === 'fake') threeDs = await startLocalFakeThreeDs(process.env.THREE_DS_ACS_ORIGINS, stack.env.SSM_ENDPOINT!);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...stack.env,
    ...threeDs?.env,
    PUBLIC_BASE_URL: baseUrl,
    SANDBOX_ACS_BASE_URL: process.env.SANDBOX_ACS_BASE_URL || acsOrigin!.baseUrl,
    SLS_TELEMETRY_DISABLED: '1',
    SLS_NOTIFICATIONS_MODE: 'off',
    OFFLINE_LAMBDA_PORT: String(await freePort()),
    ESBUILD_WORK_FOLDER: relative(process.cwd(), join(dataDir, 'esbuild')),
  };
  Object.assign(process.env, env);
  await buildWeb(); // the hosted checkout page (web/dist), served by the checkoutPage function
  const demo = await seedDemo();
  if (processorFakesWanted(process.env.PROCESSOR_FAKES)) {
    processorFakes = await startLocalProcessorFakes({ baseUrl, tenantRef: demo.tenantRef, secretsEndpoint: stack.env.SECRETS_MANAGER_ENDPOINT! });
  }

  // serverless-offline on a private port behind the edge, which does CORS as API Gateway does
  // (infra/local/http-api-edge.ts): serverless-offline's own CORS reflects any origin.
  offlinePort = await freePort();
  edge = await startHttpApiEdge({ port, upstreamPort: offlinePort, cors });
  offline = spawn(resolve('node_modules/.bin/osls'), ['offline', 'start', '--stage', 'local', '--httpPort', String(offlinePort)], {
    env: { ...env, PORT: String(offlinePort) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (offline.pid !== undefined) {
    const guarded = stack.guard(offline.pid);
    offline.once('exit', () => guarded.forget());
  }
  const offlineTail: string[] = [];
  const keepAside = (line: string) => offlineTail.push(line) > 60 && offlineTail.shift();
  offline.stdout!.on('data', (chunk: Buffer) => {
    // Handler logs are JSON lines: show them. serverless-offline's own chatter (a route table
    // per function) is kept aside and shown only if it fails.
    for (const line of chunk.toString().split('\n')) {
      if (line.startsWith('{')) process.stdout.write(`${line}\n`);
      else if (line.trim()) keepAside(line);
    }
  });
  offline.stderr!.on('data', (chunk: Buffer) => {
    // serverless-offline's notices: its start-up list of functions is kept aside (shown if it
    // fails); after the banner, one line per request passes, but not the scheduled worker's
    // invocations every second (the local schedule reports those that did something).
    for (const line of chunk.toString().split('\n')) {
      if (!line.trim()) continue;
      if (!apiReady || SCHEDULE_CHATTER.test(line)) keepAside(line);
      else process.stderr.write(`${line}\n`);
    }
  });
  offline.on('exit', (code) => {
    if (!shuttingDown) fail(`serverless-offline exited (code ${code}):\n${offlineTail.join('\n')}`);
  });
  await waitForApi(offlineTail);
  apiReady = true;
  // EventBridge's schedule, locally: the webhook worker, every second (docs/integrating/webhooks.md).
  schedule = startLocalSchedule({
    lambdaPort: Number(env.OFFLINE_LAMBDA_PORT),
    functionName: 'click-to-pay-local-webhookDelivery',
    everyMs: 1_000,
    log: (line) => process.stderr.write(`npm start: ${line}\n`),
  });
  await printBanner(demo);
}

async function printBanner(demo: DemoWorld): Promise<void> {
  const identity = stack!.identity;
  const platform = await signDevToken(identity, { realm: 'platform', permissions: [...PERMISSIONS] }, 12 * 3600);
  const tenant = await signDevToken(identity, { realm: 'tenant', tenantRef: demo.tenantRef, permissions: [...PERMISSIONS] }, 12 * 3600);
  demoFile = { ...demo, baseUrl, tokens: { platform, tenant }, ...(processorFakes ? { processors: processorFakes.merchants } : {}) };
  await writeFile(`${dataDir}/demo.json`, JSON.stringify(demoFileNow(), null, 2), { mode: 0o600 });
  const { dynamodb, kms } = stack!.processes();
  const lines = [
    '',
    `Click to Pay service running at ${baseUrl}`,
    '',
    `  API                 ${baseUrl}`,
    `  Encryption keys     ${baseUrl}/config/configs/vctp/encryption-keys`,
    `  Merchant config     ${baseUrl}/config/merchants/${demo.merchantRef}/configs/vctp`,
    `  Orders              ${baseUrl}/transactions/outlets/${demo.outletId}/orders`,
    `  Hosted checkout     ${demo.checkoutUrl}`,
    `  Payment link        ${demo.paymentLinkUrl}`,
    `  Sandbox 3DS ACS     ${process.env.SANDBOX_ACS_BASE_URL} (another origin, as an issuer's ACS)`,
    ...(threeDs
      ? [
          `  3DS Server (fake)   ${threeDs.fake.apiUrl} · ACS ${threeDs.fake.acsUrl} (production merchants step up here;`,
          '                      cards by their last four digits: test/fakes/three-ds-server/decisions.ts)',
        ]
      : []),
    `  CORS                ${cors === false ? 'none (set CORS_ALLOWED_ORIGINS to allow browser origins)' : cors.allowedOrigins.join(', ')}`,
    ...(processorFakes
      ? [
          `  Processor fakes     Adyen ${processorFakes.merchants.adyen.processorUrl} · Checkout.com ${processorFakes.merchants.checkout_com.processorUrl}`,
          `                      production demo merchants ${processorFakes.merchants.adyen.merchantRef} (outlet ${processorFakes.merchants.adyen.outletId}),`,
          `                      ${processorFakes.merchants.checkout_com.merchantRef} (outlet ${processorFakes.merchants.checkout_com.outletId})`,
        ]
      : []),
    '',
    `  demo tenant ${demo.tenantRef} · merchant ${demo.merchantRef} · outlet ${demo.outletId}`,
    `  ${`DynamoDB (${dynamoEngine})`.padEnd(26)} ${dynamodb.endpoint}   pid ${dynamodb.pid}`,
    `  ${'KMS (local server)'.padEnd(26)} ${kms.endpoint}   pid ${kms.pid}`,
    `  ${'API (serverless-offline)'.padEnd(26)} ${baseUrl}   pid ${offline?.pid}   data ${dataDir}`,
    '',
    '  DynamoDB and KMS are processes of their own: `kill -STOP <pid>` freezes one (the API',
    '  answers 503 DEPENDENCY_UNAVAILABLE), `kill -CONT <pid>` resumes it; one that is killed is',
    '  started again on the same port. Current pids are in .data/demo.json (`local`).',
    '',
    '  Demo tokens (12 h; more with `npm run -s token -- …`; also in .data/demo.json):',
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
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** demo.json with the local section as it is now (a restarted dependency has a new pid). */
function demoFileNow(): DemoFile {
  const { dynamodb, kms } = stack!.processes();
  return {
    ...demoFile!,
    // The local endpoints and pids, for tools and tests that inspect the stored state or freeze a dependency.
    local: {
      dynamoEndpoint: dynamodb.endpoint,
      kmsEndpoint: kms.endpoint,
      sessionsTable: stack!.env.SESSIONS_TABLE!,
      ordersTable: stack!.env.ORDERS_TABLE!,
      sandboxTable: stack!.env.SANDBOX_TABLE!,
      dynamodb: { ...dynamodb, engine: dynamoEngine },
      kms,
      api: { pid: offline?.pid ?? 0, port, offlinePort },
      // The sandbox ACS's own origin (docs/integrating/three-ds.md): the page's CSP frames it.
      sandboxAcsBaseUrl: process.env.SANDBOX_ACS_BASE_URL || acsOrigin!.baseUrl,
      ...(threeDs ? { threeDsServer: { apiUrl: threeDs.fake.apiUrl, acsUrl: threeDs.fake.acsUrl } } : {}),
    },
  };
}

async function writeDemoFile(): Promise<void> {
  if (!demoFile || shuttingDown) return;
  await writeFile(`${dataDir}/demo.json`, JSON.stringify(demoFileNow(), null, 2), { mode: 0o600 });
}

/**
 * `npm start` is npm → sh → tsx → this process. If any of them dies without passing a signal on
 * (kill -9 of npm, a closed terminal), stop everything rather than leave an orphaned stack
 * holding the port and the data directory. Linux only (/proc); elsewhere the parent only.
 */
function watchAncestors(): void {
  const chain: number[] = [];
  let pid = process.ppid;
  for (let depth = 0; depth < 4 && pid > 1; depth++) {
    chain.push(pid);
    let cmdline: string;
    let parent: number;
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      parent = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
    } catch {
      break;
    }
    if (/\bnpm\b|npm-cli/.test(cmdline)) break; // npm itself: its parent is the user's shell
    if (!/tsx|^\S*sh -c /.test(cmdline)) break;
    pid = parent;
  }
  const timer = setInterval(() => {
    for (const ancestor of chain) {
      try {
        process.kill(ancestor, 0);
      } catch {
        process.stderr.write(`npm start: its parent process ${ancestor} is gone; stopping\n`);
        void shutdown(1);
        return;
      }
    }
  }, 1000);
  timer.unref();
}

async function waitForApi(offlineTail: string[]): Promise<void> {
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
  fail(`the API did not come up within 180 s. serverless-offline said:\n${offlineTail.join('\n')}`);
}

let shuttingDown = false;
async function shutdown(code = 0): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  // Ctrl-C reaches DynamoDB and KMS too (one process group): they stay down now.
  stack?.stopRestarting();
  await schedule?.stop();
  await acsOrigin?.close();
  await threeDs?.close();
  if (offline && offline.exitCode === null && offline.signalCode === null) {
    const exited = new Promise((resolve) => offline!.once('exit', resolve));
    offline.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
  }
  await edge?.close();
  await processorFakes?.close().catch(() => undefined);
  await stack?.close();
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

main().catch(async (error: unknown) => {
  process.stderr.write(`npm start failed: ${(error as Error)?.stack ?? error}\n`);
  await shutdown(1);
});
