/**
 * `npm run bench` — the SPEC 4.3 handler in-process (full middy chain, real dynalite and KMS
 * server over sockets, each a process of its own), against the floor: the same crypto (JWS
 * verify, KMS RSA-OAEP unwrap, AES-GCM decrypt) and the same DynamoDB round trips done bare.
 * BENCH_PAYMENTS (per concurrency level, default 600), BENCH_CONCURRENCY (default 1,8,32),
 * BENCH_AMOUNT (minor units, default 1000; a sandbox decline amount such as 1051 makes every
 * payment fail, which is how its test checks that a failure is reported).
 *
 * A payment that does not end AUTHORISED stops the run: the error and the service's last log
 * lines go to stderr and the exit code is 1. The local stack is stopped on every exit (normal,
 * error, SIGINT/SIGTERM), and by its watchdog if this process is killed outright.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { startLocalStack, type LocalStack } from '../infra/local/stack.js';
import type { PreparedPayment } from './fixtures.js';
import { parseCommandLine } from '../infra/local/cli.js';

parseCommandLine(
  'npm run bench',
  `
Usage: [BENCH_PAYMENTS=600] [BENCH_CONCURRENCY=1,8,32] [BENCH_AMOUNT=1000]
       [BENCH_PROCESSORS=adyen,checkout_com|none] [BENCH_PROCESSOR_PAYMENTS=300] npm run bench

Pays BENCH_PAYMENTS orders through the 4.3 handler in-process at each concurrency level, against
the same-calls and minimal floors; prints p50/p95/p99, payments/s and the ratios (docs/benchmarks.md "Benchmark").
Then the processor column: 4.3 for a production merchant on each processor fake, its overhead over
the fake's own time (BENCH_PROCESSOR_PAYMENTS per level, the levels up to 8).
`,
  {},
);

const positive = (name: string, fallback: string): number[] => {
  const values = (process.env[name] ?? fallback).split(',').map(Number);
  if (values.length === 0 || values.some((n) => !Number.isInteger(n) || n <= 0)) {
    process.stderr.write(`${name} must be a positive integer (or a comma-separated list of them), not "${process.env[name]}"\n`);
    process.exit(2);
  }
  return values;
};
const perLevel = positive('BENCH_PAYMENTS', '600')[0]!;
const levels = positive('BENCH_CONCURRENCY', '1,8,32');
const amount = positive('BENCH_AMOUNT', '1000')[0]!;
const processorNames = (process.env.BENCH_PROCESSORS ?? 'adyen,checkout_com')
  .split(',')
  .map((name) => name.trim())
  .filter((name) => name && name !== 'none');
if (processorNames.some((name) => name !== 'adyen' && name !== 'checkout_com')) {
  process.stderr.write(`BENCH_PROCESSORS lists adyen and/or checkout_com (or none), not "${process.env.BENCH_PROCESSORS}"\n`);
  process.exit(2);
}
const processorPerLevel = positive('BENCH_PROCESSOR_PAYMENTS', String(Math.min(perLevel, 300)))[0]!;
const processorLevels = levels.filter((level) => level <= 8);
/** Payments per path before the clock starts (see the warm-up below). */
const WARM_UP = 100;
/** The Host API Gateway would send; links in responses are built from it. */
const BENCH_HOST = 'bench.localhost';

// Logs are produced (JSON + redaction cost counted) but not printed during the runs; the last
// ones are always kept for the report when a payment fails.
const realWrite = process.stdout.write.bind(process.stdout) as (chunk: string | Uint8Array) => boolean;
const say = (line = '') => realWrite(`${line}\n`);
let logBytes = 0;
let muted = false;
const logTail: string[] = [];
const LOG_TAIL_LINES = 30;
process.stdout.write = ((chunk: string | Uint8Array) => {
  const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  for (const line of text.split('\n')) if (line.trim()) logTail.push(line) > LOG_TAIL_LINES && logTail.shift();
  if (!muted) return realWrite(chunk);
  logBytes += text.length;
  return true;
}) as typeof process.stdout.write;
const muteLogs = () => (muted = true);
const unmuteLogs = () => (muted = false);

let stack: LocalStack | undefined;
let dataDir: string | undefined;
let stopping: Promise<void> | undefined;
function stopStack(): Promise<void> {
  stopping ??= (async () => {
    await stack?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  })();
  return stopping;
}
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => {
    unmuteLogs();
    process.stderr.write(`\nbench: ${signal}, stopping the local stack\n`);
    void stopStack().finally(() => process.exit(code));
  });
}

try {
  await main();
  await stopStack();
  process.exit(0);
} catch (error) {
  unmuteLogs();
  process.stderr.write(`\nbench failed: ${(error as Error)?.stack ?? error}\n`);
  process.stderr.write(`\n--- the service's last ${logTail.length} log lines ---\n${logTail.join('\n')}\n--- end of log ---\n`);
  await stopStack();
  process.exit(1);
}

async function main(): Promise<void> {
  dataDir = await mkdtemp(join(tmpdir(), 'ctp-bench-'));
  stack = await startLocalStack({ dataDir, persist: false, tablePrefix: 'bench' });
  const { dynamodb, kms } = stack.processes();
  say(`local stack: ${dynamodb.name} pid ${dynamodb.pid} (${dynamodb.endpoint}), kms pid ${kms.pid} (${kms.endpoint})`);
  Object.assign(process.env, stack.env, { LOG_LEVEL: 'info', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' });
  // A production network the stack trusts, for the processor column's production merchants.
  const { benchNetwork, prepareProcessorBench } = await import('./processors.js');
  const network = await benchNetwork(dataDir);
  process.env.NETWORK_JWKS_URLS = [stack.env.NETWORK_JWKS_URLS, `${network.name}=${network.jwksUrl}`].join(',');
  const { preparePayments } = await import('./fixtures.js');

  say(`preparing ${(perLevel * levels.length + WARM_UP) * 3} orders, sessions and checkout responses…`);
  // WARM_UP spares in each set for the warm-up.
  const handlerSet = await preparePayments(perLevel * levels.length + WARM_UP, dataDir, amount);
  const floorSet = await preparePayments(perLevel * levels.length + WARM_UP, dataDir, amount);
  const minimalSet = await preparePayments(perLevel * levels.length + WARM_UP, dataDir, amount);
  const { handler } = await import('../functions/pay-click-to-pay/handler.js');
  // Imported only now: configuration is read once, at module load, from the stack's environment.
  const { floorPayment, minimalFloorPayment, prepareFloor } = await import('./floor.js');
  const floor = await prepareFloor();

  async function viaHandler(p: PreparedPayment): Promise<void> {
    const path = `/transactions/outlets/${p.outletId}/orders/${p.orderRef}/payments/${p.paymentRef}/click-to-pay`;
    const response = (await handler(
      {
        version: '2.0',
        routeKey: `POST ${path}`,
        rawPath: path,
        rawQueryString: '',
        // As API Gateway sends it: links in the response are built from the request's host.
        headers: { host: BENCH_HOST, authorization: `Bearer ${p.sessionToken}`, 'content-type': 'application/json' },
        pathParameters: { outletId: p.outletId, orderRef: p.orderRef, paymentRef: p.paymentRef },
        body: JSON.stringify(p.body),
        isBase64Encoded: false,
        requestContext: { requestId: randomUUID(), domainName: BENCH_HOST, http: { method: 'POST', path, sourceIp: '203.0.113.9' } },
      } as never,
      { awsRequestId: randomUUID() } as never,
    )) as { statusCode: number; body: string };
    if (response.statusCode !== 200 || !response.body.includes('"AUTHORISED"')) {
      throw new Error(`payment ${p.paymentRef} (order ${p.orderRef}): the handler answered ${response.statusCode} ${response.body.slice(0, 300)}`);
    }
  }

  interface Result {
    p50: number;
    p95: number;
    p99: number;
    mean: number;
    perSecond: number;
    cpuPerPayment: CpuSplit;
  }

  interface Sample {
    latencies: number[];
    /** Each payment's own latency, for the processor column. */
    perPayment: { paymentRef: string; latency: number }[];
    seconds: number;
    count: number;
    cpu: CpuSplit;
  }
  /** CPU milliseconds spent by this process and by the DynamoDB and KMS processes. */
  interface CpuSplit {
    self: number;
    dynamodb: number;
    kms: number;
  }
  const clockTicks = 100; // USER_HZ on Linux
  const procCpuMs = async (pid: number): Promise<number> => {
    try {
      const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks; // utime + stime
    } catch {
      return Number.NaN; // not Linux: the split is left out
    }
  };
  const { dynamodb: dynamoProcess, kms: kmsProcess } = stack!.processes();
  const cpuNow = async (): Promise<CpuSplit> => {
    const { user, system } = process.cpuUsage();
    return { self: (user + system) / 1000, dynamodb: await procCpuMs(dynamoProcess.pid), kms: await procCpuMs(kmsProcess.pid) };
  };

  async function sample(items: PreparedPayment[], concurrency: number, pay: (p: PreparedPayment) => Promise<void>): Promise<Sample> {
    const latencies: number[] = [];
    const perPayment: Sample['perPayment'] = [];
    let next = 0;
    const cpuBefore = await cpuNow();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < items.length) {
          const item = items[next++]!;
          const t0 = performance.now();
          await pay(item);
          const latency = performance.now() - t0;
          latencies.push(latency);
          perPayment.push({ paymentRef: item.paymentRef, latency });
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const cpuAfter = await cpuNow();
    const cpu = { self: cpuAfter.self - cpuBefore.self, dynamodb: cpuAfter.dynamodb - cpuBefore.dynamodb, kms: cpuAfter.kms - cpuBefore.kms };
    return { latencies, perPayment, seconds, count: items.length, cpu };
  }

  function summarize(samples: Sample[]): Result {
    const latencies = samples.flatMap((s) => s.latencies).sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
    const seconds = samples.reduce((a, s) => a + s.seconds, 0);
    const per = (part: keyof CpuSplit) => samples.reduce((a, s) => a + s.cpu[part], 0) / latencies.length;
    const cpuPerPayment = { self: per('self'), dynamodb: per('dynamodb'), kms: per('kms') };
    return {
      p50: at(0.5),
      p95: at(0.95),
      p99: at(0.99),
      mean: latencies.reduce((a, b) => a + b, 0) / latencies.length,
      perSecond: latencies.length / seconds,
      cpuPerPayment,
    };
  }

  /**
   * The paths alternate in ROUNDS rounds per level (F M H F M H …), so drift during the run
   * (dynalite growing, GC, the other core's load) lands on all of them alike.
   */
  const ROUNDS = 4;
  async function measureInterleaved(floorItems: PreparedPayment[], minimalItems: PreparedPayment[], handlerItems: PreparedPayment[], concurrency: number) {
    const floorSamples: Sample[] = [];
    const minimalSamples: Sample[] = [];
    const handlerSamples: Sample[] = [];
    const size = Math.ceil(floorItems.length / ROUNDS);
    for (let round = 0; round < ROUNDS; round++) {
      const part = (items: PreparedPayment[]) => items.slice(round * size, (round + 1) * size);
      floorSamples.push(await sample(part(floorItems), concurrency, (p) => floorPayment(floor, p)));
      minimalSamples.push(await sample(part(minimalItems), concurrency, (p) => minimalFloorPayment(floor, p)));
      handlerSamples.push(await sample(part(handlerItems), concurrency, viaHandler));
    }
    return { floor: summarize(floorSamples), minimal: summarize(minimalSamples), handler: summarize(handlerSamples) };
  }

  // Warm-up: cold-start work (JWKS load, KMS public keys, connection pools) is not the steady
  // state, and neither is code V8 has not optimized yet: a warm Lambda has run its path many
  // times, and the handler's path is far longer than the floors' (its first hundred payments
  // ran ~25 % slower, which landed on c=1, the first level). Each path pays WARM_UP payments,
  // interleaved, before anything is measured.
  muteLogs();
  for (let i = 0; i < WARM_UP; i++) {
    await viaHandler(handlerSet.pop()!);
    await floorPayment(floor, floorSet.pop()!);
    await minimalFloorPayment(floor, minimalSet.pop()!);
  }
  unmuteLogs();

  const fmt = (n: number) => n.toFixed(2).padStart(8);
  say('');
  say(`${perLevel} payments per level · Node ${process.version} · ${(await import('node:os')).cpus().length} cores`);
  say('path      conc     p50 ms   p95 ms   p99 ms  mean ms   pay/s');
  const rows: { level: number; handler: Result; floor: Result; minimal: Result }[] = [];
  for (const [index, level] of levels.entries()) {
    const slice = (set: PreparedPayment[]) => set.slice(index * perLevel, (index + 1) * perLevel).filter(Boolean);
    muteLogs();
    const {
      floor: floorResult,
      minimal: minimalResult,
      handler: handlerResult,
    } = await measureInterleaved(slice(floorSet), slice(minimalSet), slice(handlerSet), level);
    unmuteLogs();
    rows.push({ level, handler: handlerResult, floor: floorResult, minimal: minimalResult });
    for (const [name, r] of [
      ['handler', handlerResult],
      ['floor', floorResult],
      ['minimal', minimalResult],
    ] as const) {
      say(`${name.padEnd(8)} ${String(level).padStart(5)} ${fmt(r.p50)} ${fmt(r.p95)} ${fmt(r.p99)} ${fmt(r.mean)} ${r.perSecond.toFixed(0).padStart(7)}`);
    }
  }
  say('');
  say('ratio handler/floor   p50      p99      pay/s (floor/handler)');
  for (const { level, handler: h, floor: f } of rows) {
    say(
      `  concurrency ${String(level).padStart(3)}    ${(h.p50 / f.p50).toFixed(2)}×    ${(h.p99 / f.p99).toFixed(2)}×    ${(f.perSecond / h.perSecond).toFixed(2)}×`,
    );
  }
  say('ratio handler/minimal floor   p50      p99');
  for (const { level, handler: h, minimal: m } of rows) {
    say(`  concurrency ${String(level).padStart(3)}            ${(h.p50 / m.p50).toFixed(2)}×    ${(h.p99 / m.p99).toFixed(2)}×`);
  }
  // Where the time goes: on 2 cores, c=8 is CPU-bound, so CPU per payment is what the ratio is made of.
  say('CPU ms per payment   conc   this process   dynamodb   kms');
  for (const { level, handler: h, minimal: m } of rows) {
    for (const [name, r] of [
      ['handler', h],
      ['minimal', m],
    ] as const) {
      const c = r.cpuPerPayment;
      say(
        `  ${name.padEnd(8)}        ${String(level).padStart(5)} ${c.self.toFixed(2).padStart(12)} ${c.dynamodb.toFixed(2).padStart(10)} ${c.kms.toFixed(2).padStart(6)}`,
      );
    }
  }
  say(`(log output produced during the runs: ${(logBytes / 1024).toFixed(0)} KiB, not printed)`);

  // The processor column (issue 20 item 8): the same handler for a production merchant on each
  // processor fake, beside a sandbox merchant measured in the same rounds (drift hits all alike);
  // each payment's overhead = its handler latency minus its own acquirer's time (the fake's HTTP
  // round trip; the sandbox acquirer's DynamoDB write), so the three compare like with like.
  if (processorNames.length > 0 && processorLevels.length > 0) {
    const count = processorPerLevel * processorLevels.length;
    const warmUp = Math.min(WARM_UP, count);
    const { sandboxClock } = await import('./processors.js');
    const { sandboxAuthorizer: authorizer } = await import('../lib/composition/acquirers.js');
    const paths = [
      { name: 'sandbox', payments: await preparePayments(count + warmUp, dataDir, amount), clock: sandboxClock(authorizer!), close: async () => {} },
      ...(await Promise.all(processorNames.map((name) => prepareProcessorBench(name as 'adyen' | 'checkout_com', count + warmUp, network, amount)))),
    ];
    say('');
    say(
      `processor column: ${processorPerLevel} payments per level and path, ${ROUNDS} interleaved rounds; overhead = handler − the acquirer's own time, per payment`,
    );
    say('acquirer       conc  handler p50  acquirer p50  overhead p50  overhead p99  overhead/sandbox p50');
    try {
      muteLogs();
      // The handler's path is warm already; this warms each processor's adapter and its fake.
      for (let i = 0; i < warmUp; i++) for (const path of paths) await viaHandler(path.payments.pop()!);
      for (const [index, level] of processorLevels.entries()) {
        const samples = new Map<string, Sample[]>(paths.map((path) => [path.name, []]));
        const size = Math.ceil(processorPerLevel / ROUNDS);
        for (let round = 0; round < ROUNDS; round++) {
          for (const path of paths) {
            const items = path.payments.slice(index * processorPerLevel, (index + 1) * processorPerLevel).slice(round * size, (round + 1) * size);
            samples.get(path.name)!.push(await sample(items, level, viaHandler));
          }
        }
        unmuteLogs();
        const at = (values: number[], q: number) => values[Math.min(values.length - 1, Math.floor(q * values.length))]!;
        const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
        const overheadP50 = new Map<string, number>();
        for (const path of paths) {
          const measured = samples.get(path.name)!.flatMap((s) => s.perPayment);
          const own = measured.map(({ paymentRef }) => path.clock.of(paymentRef));
          const overheads = sorted(measured.map(({ paymentRef, latency }) => latency - path.clock.of(paymentRef)));
          overheadP50.set(path.name, at(overheads, 0.5));
          say(
            `${path.name.padEnd(13)} ${String(level).padStart(5)} ${fmt(at(sorted(measured.map((m) => m.latency)), 0.5))}     ${fmt(at(sorted(own), 0.5))}  ${fmt(at(overheads, 0.5))}  ${fmt(at(overheads, 0.99))}            ${(at(overheads, 0.5) / overheadP50.get('sandbox')!).toFixed(2)}×`,
          );
        }
        muteLogs();
      }
    } finally {
      unmuteLogs();
      await Promise.all(paths.map((path) => path.close()));
    }
    say('(ms; the sandbox acquirer: one DynamoDB write; a processor: its fake over HTTP on loopback, in this process)');
  }
  // The issue's yardstick, always the last line: the p50 ratio at c=1 and c=8 (or the levels run).
  const shown = rows.some((r) => r.level === 8) ? rows.filter((r) => r.level === 1 || r.level === 8) : rows;
  say(`ratio to the minimal floor: p50 ${shown.map((r) => `c=${r.level} ${(r.handler.p50 / r.minimal.p50).toFixed(2)}`).join(', ')}`);
}
