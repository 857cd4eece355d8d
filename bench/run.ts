/**
 * `npm run bench` — the SPEC 4.3 handler in-process (full middy chain, real dynalite and KMS
 * server over sockets, in a separate process), against the floor: the same crypto (JWS
 * verify, KMS RSA-OAEP unwrap, AES-GCM decrypt) and the same DynamoDB round trips done bare.
 * BENCH_PAYMENTS (per concurrency level, default 600) and BENCH_CONCURRENCY (default 1,8,32).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { randomUUID } from 'node:crypto';
import { preparePayments, type PreparedPayment } from './fixtures.js';

const perLevel = Number(process.env.BENCH_PAYMENTS ?? 600);
const levels = (process.env.BENCH_CONCURRENCY ?? '1,8,32').split(',').map(Number);

const stack = spawn('npx', ['tsx', 'bench/stack-process.ts'], { stdio: ['ignore', 'pipe', 'inherit'], detached: true });
const first = await new Promise<string>((resolve) => createInterface({ input: stack.stdout! }).once('line', resolve));
const { env, dataDir } = JSON.parse(first) as { env: Record<string, string>; dataDir: string };
Object.assign(process.env, env, { LOG_LEVEL: 'info', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' });

// Logs are produced (JSON + redaction cost counted) but not printed during the runs.
const realWrite = process.stdout.write.bind(process.stdout);
const say = (line = '') => realWrite(line + '\n');
let logBytes = 0;
const muteLogs = () => (process.stdout.write = ((chunk: string) => ((logBytes += chunk.length), true)) as typeof process.stdout.write);
const unmuteLogs = () => (process.stdout.write = realWrite);

say(`preparing ${perLevel * levels.length * 2} orders, sessions and checkout responses…`);
const handlerSet = await preparePayments(perLevel * levels.length, dataDir);
const floorSet = await preparePayments(perLevel * levels.length, dataDir);
const { handler } = await import('../functions/pay-click-to-pay/handler.js');
// Imported only now: configuration is read once, at module load, from the stack's environment.
const { floorPayment, prepareFloor } = await import('./floor.js');
const floor = await prepareFloor();

async function viaHandler(p: PreparedPayment): Promise<void> {
  const path = `/transactions/outlets/${p.outletId}/orders/${p.orderRef}/payments/${p.paymentRef}/click-to-pay`;
  const response = (await handler(
    {
      version: '2.0',
      routeKey: `POST ${path}`,
      rawPath: path,
      rawQueryString: '',
      headers: { authorization: `Bearer ${p.sessionToken}`, 'content-type': 'application/json' },
      pathParameters: { outletId: p.outletId, orderRef: p.orderRef, paymentRef: p.paymentRef },
      body: JSON.stringify(p.body),
      isBase64Encoded: false,
      requestContext: { requestId: randomUUID(), http: { method: 'POST', path, sourceIp: '203.0.113.9' } },
    } as never,
    { awsRequestId: randomUUID() } as never,
  )) as { statusCode: number; body: string };
  if (response.statusCode !== 200 || !response.body.includes('"AUTHORISED"')) throw new Error(`handler answered ${response.statusCode} ${response.body.slice(0, 200)}`);
}

interface Result { p50: number; p95: number; p99: number; mean: number; perSecond: number }

interface Sample { latencies: number[]; seconds: number; count: number }

async function sample(items: PreparedPayment[], concurrency: number, pay: (p: PreparedPayment) => Promise<void>): Promise<Sample> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const item = items[next++]!;
        const t0 = performance.now();
        await pay(item);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000, count: items.length };
}

function summarize(samples: Sample[]): Result {
  const latencies = samples.flatMap((s) => s.latencies).sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  const seconds = samples.reduce((a, s) => a + s.seconds, 0);
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), mean: latencies.reduce((a, b) => a + b, 0) / latencies.length, perSecond: latencies.length / seconds };
}

/**
 * Floor and handler alternate in ROUNDS rounds per level (F H F H …), so drift during the run
 * (dynalite growing, GC, the other core's load) lands on both paths alike.
 */
const ROUNDS = 4;
async function measureInterleaved(floorItems: PreparedPayment[], handlerItems: PreparedPayment[], concurrency: number) {
  const floorSamples: Sample[] = [];
  const handlerSamples: Sample[] = [];
  const size = Math.ceil(floorItems.length / ROUNDS);
  for (let round = 0; round < ROUNDS; round++) {
    const part = (items: PreparedPayment[]) => items.slice(round * size, (round + 1) * size);
    floorSamples.push(await sample(part(floorItems), concurrency, (p) => floorPayment(floor, p)));
    handlerSamples.push(await sample(part(handlerItems), concurrency, viaHandler));
  }
  return { floor: summarize(floorSamples), handler: summarize(handlerSamples) };
}

// Warm-up: cold-start work (JWKS load, KMS public keys, connection pools) is not the steady state.
muteLogs();
await viaHandler(handlerSet.pop()!);
await floorPayment(floor, floorSet.pop()!);
unmuteLogs();

const fmt = (n: number) => n.toFixed(2).padStart(8);
say('');
say(`${perLevel} payments per level · Node ${process.version} · ${(await import('node:os')).cpus().length} cores`);
say('path      conc     p50 ms   p95 ms   p99 ms  mean ms   pay/s');
const rows: { level: number; handler: Result; floor: Result }[] = [];
for (const [index, level] of levels.entries()) {
  const slice = (set: PreparedPayment[]) => set.slice(index * perLevel, (index + 1) * perLevel).filter(Boolean);
  muteLogs();
  const { floor: floorResult, handler: handlerResult } = await measureInterleaved(slice(floorSet), slice(handlerSet), level);
  unmuteLogs();
  rows.push({ level, handler: handlerResult, floor: floorResult });
  for (const [name, r] of [['handler', handlerResult], ['floor', floorResult]] as const) {
    say(`${name.padEnd(8)} ${String(level).padStart(5)} ${fmt(r.p50)} ${fmt(r.p95)} ${fmt(r.p99)} ${fmt(r.mean)} ${r.perSecond.toFixed(0).padStart(7)}`);
  }
}
say('');
say('ratio handler/floor   p50      p99      pay/s (floor/handler)');
for (const { level, handler: h, floor: f } of rows) {
  say(`  concurrency ${String(level).padStart(3)}    ${(h.p50 / f.p50).toFixed(2)}×    ${(h.p99 / f.p99).toFixed(2)}×    ${(f.perSecond / h.perSecond).toFixed(2)}×`);
}
say(`(log output produced during the runs: ${(logBytes / 1024).toFixed(0)} KiB, not printed)`);
process.kill(-stack.pid!, 'SIGTERM');
process.exit(0);
