/**
 * `npm run load` — the whole local service under load, over HTTP, through `npm start` (or an
 * already running service: LOAD_BASE_URL, with DATA_DIR its data directory), with autocannon:
 *   4.1 GET merchant config (demo merchant, demo tenant token) at LOAD_CONCURRENCY (default 16)
 *       connections for LOAD_SECONDS (default 10);
 *   4.3 POST click-to-pay for LOAD_PAYMENTS (default 400) payments at the same concurrency, each
 *       request with its own order, hosted session and signed checkout response, all prepared
 *       before the clock starts so that only 4.3 is measured; every one must end AUTHORISED
 *       (LOAD_AMOUNT, default 1000, the order amount: 1051 is a sandbox decline).
 * Before each, a warm-up burst at the same concurrency (not measured): serverless-offline, like
 * Lambda, starts one worker per concurrent request, and cold starts are `bench:coldstart`'s.
 *
 * Prints requests/s, p50/p99 latency, requests, non-2xx and errors per endpoint; exits 1 if any
 * measured request failed (non-2xx, connection error, timeout, or a 2xx whose body is not what
 * the endpoint must say), with the service's last log lines. The service it started is stopped
 * and its temporary data directory removed on every exit (normal, error, SIGINT/SIGTERM).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as z from 'zod';
import { freePort } from '../infra/local/ports.js';
import { prepareLoadPayments } from './load-payments.js';
import { clickToPay, formatRow, merchantConfig, TABLE_HEADER, type Row } from './load-runs.js';
import { existingService, launchService, type LaunchedService, type Target } from './load-service.js';
import { parseCommandLine } from '../infra/local/cli.js';

parseCommandLine(
  'npm run load',
  `
Usage: [LOAD_CONCURRENCY=16] [LOAD_SECONDS=10] [LOAD_PAYMENTS=400] [LOAD_AMOUNT=1000] [LOAD_PORT=…] npm run load
       LOAD_BASE_URL=http://localhost:3000 DATA_DIR=.data npm run load      (a service already running)

Loads 4.1 and 4.3 over HTTP with autocannon through its own \`npm start\` (docs/benchmarks.md "Load").
`,
  {},
);

const count = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const settings = z
  .object({
    LOAD_CONCURRENCY: count(16),
    LOAD_SECONDS: count(10),
    LOAD_PAYMENTS: count(400),
    // A sandbox decline amount (1051) makes every 4.3 answer FAILED: how the smoke test shows a failed run.
    LOAD_AMOUNT: count(1000),
    LOAD_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    LOAD_BASE_URL: z.url().optional(),
    DATA_DIR: z.string().min(1).default('.data'),
  })
  .safeParse(Object.fromEntries(Object.entries(process.env).filter(([, value]) => value !== '')));
if (!settings.success) {
  process.stderr.write(`npm run load: ${z.prettifyError(settings.error)}\n`);
  process.exit(2);
}
const config = settings.data;
const say = (line = '') => process.stdout.write(`${line}\n`);

let service: LaunchedService | undefined;
let tempDir: string | undefined;
let stopping: Promise<void> | undefined;
function cleanUp(): Promise<void> {
  stopping ??= (async () => {
    await service?.stop();
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
  })();
  return stopping;
}
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => {
    process.stderr.write(`\nload: ${signal}, stopping the service\n`);
    void cleanUp().finally(() => process.exit(code));
  });
}

try {
  const failed = await main();
  if (failed) process.stderr.write(`\n--- the service's last log lines ---\n${service?.tail() ?? '(not started by this run)'}\n--- end of log ---\n`);
  await cleanUp();
  process.exit(failed ? 1 : 0);
} catch (error) {
  process.stderr.write(`\nload failed: ${(error as Error)?.stack ?? error}\n`);
  if (service) process.stderr.write(`\n--- the service's last log lines ---\n${service.tail()}\n--- end of log ---\n`);
  await cleanUp();
  process.exit(1);
}

/** True when a measured request failed. */
async function main(): Promise<boolean> {
  let target: Target;
  let dataDir: string;
  if (config.LOAD_BASE_URL) {
    dataDir = resolve(config.DATA_DIR);
    target = await existingService(config.LOAD_BASE_URL, dataDir);
    say(`load: the service at ${target.baseUrl} (data ${dataDir})`);
  } else {
    dataDir = tempDir = await mkdtemp(join(tmpdir(), 'ctp-load-'));
    const port = config.LOAD_PORT ?? (await freePort());
    say(`load: starting npm start on port ${port} (data ${dataDir})…`);
    service = launchService(port, dataDir);
    target = await service.ready;
    say(`load: npm start is up at ${target.baseUrl}, process group ${service.child.pid}`);
  }
  const c = config.LOAD_CONCURRENCY;
  say(`preparing ${config.LOAD_PAYMENTS + c} orders, hosted sessions and checkout responses (${c} for the warm-up)…`);
  const payments = await prepareLoadPayments(target, dataDir, config.LOAD_PAYMENTS + c, config.LOAD_AMOUNT);

  const warm = [await merchantConfig(target, c, { amount: 2 * c }), await clickToPay(target, c, payments.splice(0, c))];
  // Cold workers on a busy machine may miss a deadline (503): shown, but only the measured runs count.
  const warmLine = (r: Row) => `${r.name.slice(0, 3)} ${r.requests} requests (${r.statuses || 'no answer'}; errors ${r.errors})`;
  say(`warm-up, not measured: ${warm.map(warmLine).join('; ')}`);

  const rows: Row[] = [await merchantConfig(target, c, { seconds: config.LOAD_SECONDS }), await clickToPay(target, c, payments)];
  say('');
  say(`npm run load · concurrency ${c} · 4.1 for ${config.LOAD_SECONDS} s · 4.3 × ${config.LOAD_PAYMENTS} · Node ${process.version} · ${cpus().length} cores`);
  say(TABLE_HEADER);
  for (const r of rows) say(formatRow(r));
  const failures = rows.filter((r) => r.non2xx > 0 || r.errors > 0);
  say('');
  for (const r of failures) say(`${r.name}: status codes ${r.statuses || 'none'}; ${r.errors} errors (timeouts, connection errors, unexpected bodies)`);
  say(failures.length === 0 ? 'load: every request answered 2xx, 0 errors' : 'load: FAILED — requests failed');
  return failures.length > 0;
}
