import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../infra/local/ports.js';
import { routeTable } from '../../lib/http/routes.js';
import { startFakeNetworks, type FakeNetworks } from './fakes/index.js';

/**
 * Starts the service the way a person would — `npm start` with PORT (a free port, never
 * 3000) and DATA_DIR (a fresh temp directory) — waits for its banner, and hands the
 * scenarios <DATA_DIR>/demo.json through E2E_CONTEXT. Teardown stops the whole process group.
 * The server's output goes to test-results/e2e/server.log.
 *
 * Before the service starts, the fake Visa and Mastercard networks (test/e2e/fakes/) start on
 * their own loopback origins; the service is pointed at them (their SDK URLs, their signing
 * keys) and production merchants without a real processor are authorized by the sandbox
 * acquirer (PRODUCTION_ACQUIRER, a non-production stage's setting); `npm start` also runs the
 * Adyen and Checkout.com fakes with a production demo merchant on each (PROCESSOR_FAKES). Once it runs, the fakes learn the service's payload key
 * from 4.2, as a network learns it when the merchant registers. Their origins reach the
 * scenarios through E2E_FAKE_NETWORKS. Production merchants step up through the fake 3DS
 * Server (test/fakes/three-ds-server), which `npm start` runs when LOCAL_THREE_DS_SERVER=fake.
 */
const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const BANNER = 'Click to Pay service running at';
const START_TIMEOUT_MS = 240_000;

let child: ChildProcess | undefined;
let dataDir: string | undefined;
let log: WriteStream | undefined;
let fakes: FakeNetworks | undefined;

export async function setup(): Promise<() => Promise<void>> {
  const port = await freePort();
  dataDir = await mkdtemp(join(tmpdir(), 'ctp-e2e-'));
  const resultsDir = join(ROOT, 'test-results', 'e2e');
  await mkdir(resultsDir, { recursive: true });
  log = createWriteStream(join(resultsDir, 'server.log'));

  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir };
  // A developer's shell may export real settings; the local stack must use its own.
  for (const name of [
    'PAYLOAD_KEY_IDS',
    'WEBHOOK_SECRETS_KEY_ID',
    'NETWORK_JWKS_URLS',
    'AUTH_ISSUER',
    'AUTH_AUDIENCE',
    'AUTH_JWKS_URL',
    'PUBLIC_BASE_URL',
    'DYNAMODB_ENDPOINT',
    'KMS_ENDPOINT',
    'CLICK_TO_PAY_SDK_URLS',
    'PRODUCTION_ACQUIRER',
    'PAYLOAD_KEY_NETWORK_KIDS',
    'SANDBOX_ACS_BASE_URL',
    'THREE_DS_ACS_ORIGINS',
    'SECRETS_MANAGER_ENDPOINT',
    'SSM_ENDPOINT',
    'PROCESSOR_SECRETS_PREFIX',
    'THREE_DS_SERVER_URL',
    'THREE_DS_SERVER_API_KEY_ARN',
  ])
    delete env[name];
  const fakesDir = join(dataDir, 'fake-networks');
  await mkdir(fakesDir, { recursive: true });
  fakes = await startFakeNetworks(fakesDir);
  // The processor fakes and a production demo merchant on each (infra/local/processor-fakes.ts);
  // production merchants step up through the fake 3DS Server (LOCAL_THREE_DS_SERVER=fake).
  Object.assign(env, fakes.env, { PRODUCTION_ACQUIRER: 'sandbox', PROCESSOR_FAKES: '1', LOCAL_THREE_DS_SERVER: 'fake' });

  child = spawn('npm', ['start'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.pipe(log, { end: false });
  child.stderr!.pipe(log, { end: false });
  child.unref();

  await new Promise<void>((resolveReady, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`npm start did not print "${BANNER}" within ${START_TIMEOUT_MS / 1000} s (see test-results/e2e/server.log)`)),
      START_TIMEOUT_MS,
    );
    const onData = (chunk: Buffer) => {
      seen = (seen + chunk.toString()).slice(-4096);
      if (seen.includes(BANNER)) {
        clearTimeout(timer);
        child!.stdout!.off('data', onData);
        resolveReady();
      }
    };
    child!.stdout!.on('data', onData);
    child!.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited early (code ${code}); see test-results/e2e/server.log`));
    });
  });

  const demo = JSON.parse(await readFile(join(dataDir, 'demo.json'), 'utf8')) as Record<string, unknown>;
  await warmUp(String(demo.baseUrl));
  await registerPayloadKey(String(demo.baseUrl), (demo.tokens as { tenant: string }).tenant, fakes);
  process.env.E2E_CONTEXT = JSON.stringify(demo);
  process.env.E2E_FAKE_NETWORKS = JSON.stringify({
    visa: { origin: fakes.visa.origin, sdkUrl: fakes.visa.sdkUrl, cardKeyUrl: fakes.visa.cardKeyUrl },
    mastercard: { origin: fakes.mastercard.origin, sdkUrl: fakes.mastercard.sdkUrl, cardKeyUrl: fakes.mastercard.cardKeyUrl },
  });
  process.env.E2E_RESULTS_DIR = resultsDir;
  return teardown;
}

async function teardown(): Promise<void> {
  const running = child;
  child = undefined;
  if (running?.pid && running.exitCode === null) {
    const exited = new Promise<void>((done) => running.once('exit', () => done()));
    signalGroup(running.pid, 'SIGTERM');
    const timedOut = await Promise.race([exited.then(() => false), new Promise<boolean>((done) => setTimeout(() => done(true), 15_000))]);
    if (timedOut) {
      signalGroup(running.pid, 'SIGKILL');
      await exited;
    }
  }
  running?.stdout?.destroy();
  running?.stderr?.destroy();
  await new Promise<void>((done) => (log ? log.end(() => done()) : done()));
  log = undefined;
  await fakes?.close();
  fakes = undefined;
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}

/** The service's current payload key (4.2), registered with both fake networks. */
async function registerPayloadKey(baseUrl: string, token: string, networks: FakeNetworks): Promise<void> {
  const response = await fetch(`${baseUrl}/config/configs/vctp/encryption-keys`, { headers: { Authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`GET encryption-keys answered ${response.status}`);
  const body = (await response.json()) as { encryptionKeyId: string; keys: { kid: string }[] };
  const current = body.keys.find((key) => key.kid === body.encryptionKeyId);
  if (!current) throw new Error('4.2 names no current key');
  networks.visa.registerPayloadKey(current);
  networks.mastercard.registerPayloadKey(current);
}

/**
 * serverless-offline loads each function on its first request; on a busy machine that cold
 * start can exceed the function's timeout (504 "Lambda timeout"). Scenarios test the page,
 * not cold starts: call every route of the route table (lib/http/routes.ts) once (no token, dummy ids — a
 * fast 4xx) and retry while the answer is a 504.
 */
async function warmUp(baseUrl: string): Promise<void> {
  for (const route of routeTable().flatMap((fn) => fn.routes)) {
    const [method, path] = route.split(' ') as [string, string];
    const url = `${baseUrl}${path.replace(/\{[^}]+\}/g, 'warm-up')}`;
    for (let attempt = 0; attempt < 4; attempt++) {
      const status = await fetch(url, {
        method,
        ...(method === 'GET' ? {} : { headers: { 'Content-Type': 'application/json' }, body: '{}' }),
        signal: AbortSignal.timeout(30_000),
      }).then(
        (response) => response.arrayBuffer().then(() => response.status),
        () => 0,
      );
      if (status !== 504 && status !== 0) break;
    }
  }
}

/** The negative pid addresses the process group that `detached: true` created: npm, tsx, osls, dynalite… */
function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}
