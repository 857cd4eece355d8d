/**
 * `npm run bench:coldstart` — module init of every packaged API function against two floors.
 *
 * 1. `osls package --stage test` of a temporary copy (offline, test/deploy/package-template.ts;
 *    it builds the web page in the copy), so the bundles measured are the ones deployed.
 * 2. Each API function's zip is unpacked; the floors are bundled with esbuild --bundle --minify
 *    --format=esm --platform=node --splitting and the same createRequire banner and chunk names
 *    serverless.yml gives the functions (the SDK's own import()s go to chunks there too):
 *    - the floor, bench/coldstart-floor.ts: what any 4.3 handler needs, and what such a handler
 *      builds at module scope (the clients, the access tokens' remote JWKS set, a body schema);
 *    - the strict floor, bench/coldstart-floor-strict.ts (issue 18): exactly middy, the DynamoDB
 *      document client, the KMS client, jose and zod, only the two clients at module scope.
 * 3. Rounds: in each, every function's bundle and each floor (several times, spread out) are
 *    imported in random order, each in a fresh `node` process that times `await import(bundle)`
 *    with performance.now() — module load, parse and top-level evaluation, i.e. Lambda's init.
 *    Each process gets the function's own environment from the template (NODE_OPTIONS included),
 *    CloudFormation references replaced with dummies; nothing at import touches the network.
 *
 * Prints per function: what its init reads (the handler and the chunks it imports statically; the
 * chunks only import() reaches are read at that first import(), not here), median init (wall and
 * CPU), its ratios to each floor's median; last lines the worst and the machine's load average.
 * BENCH_COLDSTART_RUNS (default 15) rounds.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { packageTemplate } from '../test/deploy/package-template.js';
import { parseCommandLine } from '../infra/local/cli.js';
import { routeTable } from '../lib/http/routes.js';

parseCommandLine(
  'npm run bench:coldstart',
  `
Usage: [BENCH_COLDSTART_RUNS=15] [BENCH_COLDSTART_NODE_OPTIONS=…] npm run bench:coldstart

Packages the service, then times every API function's module init against two floors (docs/benchmarks.md "Cold start").
`,
  {},
);

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const RUNS = Number(process.env.BENCH_COLDSTART_RUNS ?? 15);
/** Floor imports per round: its median is the denominator of every ratio, so sample it more. */
const FLOOR_PER_ROUND = 3;
/** serverless.yml custom.esbuild.banner: ESM bundles with CommonJS inside need a real require. */
const BANNER = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

interface Subject {
  name: string;
  bundle: string;
  bytes: number;
  env: Record<string, string>;
  wall: number[];
  cpu: number[];
}

interface Sample {
  wall: number;
  cpu: number;
}

/** Values a handler reads at import; stand-ins for what CloudFormation fills in at deploy. */
const DUMMY_ENV: Record<string, string> = {
  AWS_REGION: 'eu-west-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  AWS_LAMBDA_FUNCTION_NAME: 'bench',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  CONFIG_TABLE: 'bench-config',
  ORDERS_TABLE: 'bench-orders',
  SESSIONS_TABLE: 'bench-sessions',
  REPLAY_TABLE: 'bench-replay',
  IDEMPOTENCY_TABLE: 'bench-idempotency',
  AUTH_ISSUER: 'https://auth.example.invalid/',
  AUTH_AUDIENCE: 'click-to-pay',
  AUTH_JWKS_URL: 'https://auth.example.invalid/.well-known/jwks.json',
  NETWORK_JWKS_URLS: 'visa=https://jwks.example.invalid/visa',
  PAYLOAD_KEY_IDS: 'alias/bench-payload-current',
  WEBHOOK_SECRETS_KEY_ID: 'alias/bench-webhook-secrets',
};

const CHILD = `
const url = process.argv[1];
const cpu = process.cpuUsage();
const started = performance.now();
await import(url);
const wall = performance.now() - started;
const used = process.cpuUsage(cpu);
process.stdout.write(JSON.stringify({ wall, cpu: (used.user + used.system) / 1000 }));
`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function importOnce(subject: Subject): Promise<Sample> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD, pathToFileURL(subject.bundle).href], {
      env: { PATH: process.env.PATH, ...subject.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      // A minified bundle's line is the whole file: show only the end of what went wrong.
      if (code !== 0) return reject(new Error(`${subject.name}: import failed (exit ${code}): …${err.slice(-1_500)}`));
      resolvePromise(JSON.parse(out) as Sample);
    });
  });
}

/** The function's environment from the template: strings kept, CloudFormation intrinsics → dummies. */
function environmentOf(resource: { Properties: { Environment?: { Variables?: Record<string, unknown> } } } | undefined): Record<string, string> {
  const env = { ...DUMMY_ENV };
  for (const [key, value] of Object.entries(resource?.Properties.Environment?.Variables ?? {})) {
    if (typeof value === 'string') env[key] = value;
  }
  return withNodeOptionsOverride(env);
}

/** BENCH_COLDSTART_NODE_OPTIONS, when set (even empty), replaces the template's NODE_OPTIONS: to compare. */
function withNodeOptionsOverride(env: Record<string, string>): Record<string, string> {
  const override = process.env.BENCH_COLDSTART_NODE_OPTIONS;
  if (override === undefined) return env;
  const { NODE_OPTIONS: _ignored, ...rest } = env;
  return override ? { ...rest, NODE_OPTIONS: override } : rest;
}

function logicalIdOf(functionName: string): string {
  // serverless' naming: getMerchantConfig → GetMerchantConfigLambdaFunction.
  return `${functionName[0]!.toUpperCase()}${functionName.slice(1).replace(/-/g, 'Dash').replace(/_/g, 'Underscore')}LambdaFunction`;
}

async function buildFloor(dir: string, source: string): Promise<string> {
  const outdir = join(dir, source.replace(/\W/g, '-'));
  await build({
    entryPoints: { handler: join(ROOT, source) },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    banner: { js: BANNER },
    // As serverless.yml custom.esbuild: code splitting, chunks named after the handler.
    splitting: true,
    chunkNames: 'handler.[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    outdir,
    logLevel: 'error',
  });
  return join(outdir, 'handler.mjs');
}

/** Bytes a module reads at import: itself and, transitively, the chunks it imports statically (not import()). */
function initBytes(file: string, seen = new Set<string>()): number {
  if (seen.has(file)) return 0;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  let bytes = Buffer.byteLength(source);
  // esbuild's minified static imports: `import{a as b}from"./x.mjs"` or `import"./x.mjs"`; import("./x.mjs") is not one.
  for (const [, chunk] of source.matchAll(/(?:\bfrom|\bimport)\s*"(\.\/handler\.[^"]+\.mjs)"/g)) bytes += initBytes(join(dirname(file), chunk!), seen);
  return bytes;
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'ctp-coldstart-'));
  console.log('packaging with osls (stage test, offline)…');
  const packaged = await packageTemplate();
  try {
    // Every function behind an HTTP route, the fallback ($default) included; not the worker.
    const api = routeTable().filter((entry) => entry.routes.length > 0 || entry.catchAll);
    const subjects: Subject[] = [];
    for (const entry of api) {
      const resource = packaged.template.Resources[logicalIdOf(entry.name)];
      if (!resource) continue; // not packaged on this stage
      const dir = join(work, entry.name);
      mkdirSync(dir, { recursive: true });
      const unzip = spawnSync('unzip', ['-q', '-o', join(packaged.packageDir, `${entry.name}.zip`), '-d', dir], { encoding: 'utf8' });
      if (unzip.status !== 0) throw new Error(`unzip ${entry.name}.zip: ${unzip.stderr}`);
      const bundle = join(dir, 'functions', entry.dir, 'handler.mjs');
      subjects.push({ name: entry.name, bundle, bytes: initBytes(bundle), env: environmentOf(resource), wall: [], cpu: [] });
    }
    const nodeOptions = subjects[0]?.env.NODE_OPTIONS;
    // The floors run under the same NODE_OPTIONS as the functions (they have no source map to load).
    const floorOf = async (name: string, source: string): Promise<Subject> => {
      const bundle = await buildFloor(work, source);
      return {
        name: `${name} (${source})`,
        bundle,
        bytes: initBytes(bundle),
        env: { ...DUMMY_ENV, ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}) },
        wall: [],
        cpu: [],
      };
    };
    const floor = await floorOf('floor', 'bench/coldstart-floor.ts');
    const strict = await floorOf('strict floor', 'bench/coldstart-floor-strict.ts');

    console.log(`${subjects.length} API functions, ${RUNS} rounds, NODE_OPTIONS=${nodeOptions ?? '(none)'}, node ${process.version}`);
    // The machine's load while the rounds ran: wall times (not CPU times) grow with it.
    const loads: number[] = [loadavg()[0]!];
    for (let round = 1; round <= RUNS; round++) {
      const order = shuffle([...subjects, ...[floor, strict].flatMap((f) => Array.from({ length: FLOOR_PER_ROUND }, () => f))]);
      for (const subject of order) {
        const sample = await importOnce(subject);
        subject.wall.push(sample.wall);
        subject.cpu.push(sample.cpu);
      }
      loads.push(loadavg()[0]!);
      process.stdout.write(`\rround ${round}/${RUNS}`);
    }
    process.stdout.write('\n');

    // Wall time (performance.now()) is what a cold start costs; CPU time (process.cpuUsage()) is the
    // same work without the wait for a core, steadier when the machine is shared.
    const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
    const ratios = (subject: Subject) => ({
      wall: median(subject.wall) / median(floor.wall),
      cpu: median(subject.cpu) / median(floor.cpu),
      strictWall: median(subject.wall) / median(strict.wall),
      strictCpu: median(subject.cpu) / median(strict.cpu),
    });
    const rows = subjects.map((subject) => ({ subject, ...ratios(subject) }));
    console.log(
      '| function | read at init | median init (wall) | ratio | ratio, strict floor | median init (CPU) | ratio | ratio, strict floor |\n|---|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const row of [floor, strict].map((subject) => ({ subject, ...ratios(subject) })).concat(rows)) {
      const { subject } = row;
      const cells = [
        kib(subject.bytes),
        `${median(subject.wall).toFixed(1)} ms`,
        row.wall.toFixed(2),
        row.strictWall.toFixed(2),
        `${median(subject.cpu).toFixed(1)} ms`,
        row.cpu.toFixed(2),
        row.strictCpu.toFixed(2),
      ];
      console.log(`| ${subject.name} | ${cells.join(' | ')} |`);
    }
    const worst = (key: 'wall' | 'cpu' | 'strictWall' | 'strictCpu') => {
      const row = rows.reduce((a, b) => (b[key] > a[key] ? b : a));
      return `${row[key].toFixed(2)} (${row.subject.name})`;
    };
    console.log(`worst ratio to the floor: wall ${worst('wall')}, CPU ${worst('cpu')}`);
    console.log(`worst ratio to the strict floor: wall ${worst('strictWall')}, CPU ${worst('strictCpu')}`);
    console.log(
      `1-minute load average during the rounds: ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)} (median ${median(loads).toFixed(2)}) on ${availableParallelism()} cores`,
    );
  } finally {
    packaged.cleanup();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
