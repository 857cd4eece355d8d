/**
 * `npm run bench:first-hour` — a new user's first payment, timed as the README promises it:
 *
 * 1. `git clone` of this checkout's HEAD into a temporary directory;
 * 2. `npm ci` there with an empty npm cache of its own (a cold cache, as on a new machine;
 *    BENCH_WARM_CACHE=1 uses the user's cache instead);
 * 3. `npm start` (port and data directory of its own) until its banner;
 * 4. the README's walk-through, its ```sh blocks in one bash as the reader pastes them, until it
 *    prints AUTHORISED.
 *
 * Prints each step's wall time and the total from the clone to the first payment; removes the
 * clone, the cache and the private TMPDIR at the end. Nothing is kept: run it on a quiet machine
 * (README "How long things take").
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCommandLine } from '../infra/local/cli.js';
import { freePort, stopGroup } from '../test/support/local-service.js';

parseCommandLine(
  'npm run bench:first-hour',
  `
Usage: [BENCH_WARM_CACHE=1] npm run bench:first-hour

Clones this checkout, runs npm ci (cold npm cache unless BENCH_WARM_CACHE=1), npm start and the
README's walk-through to the first AUTHORISED payment, and prints how long each step took.
`,
  {},
);

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const work = mkdtempSync(join(tmpdir(), 'ctp-first-hour-'));
const clone = join(work, 'clone');
const privateTmp = join(work, 'tmp');
mkdirSync(privateTmp);
const say = (line: string) => process.stdout.write(`${line}\n`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function timed<T>(step: string, run: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = run();
  const ms = performance.now() - started;
  say(`${step.padEnd(34)} ${seconds(ms)}`);
  return { value, ms };
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): void {
  const result = spawnSync(command, args, {
    cwd: clone,
    env: { ...process.env, TMPDIR: privateTmp, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stderr.slice(-2000)}`);
}

/** The README's ```sh blocks that run (no "recipe not run" marker above them), in order. */
function walkThrough(): string {
  const lines = readFileSync(join(clone, 'README.md'), 'utf8').split('\n');
  const blocks: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```sh') continue;
    const end = lines.indexOf('```', i + 1);
    if (!lines[i - 1]?.startsWith('<!-- recipe not run')) blocks.push(lines.slice(i + 1, end).join('\n'));
    i = end;
  }
  return blocks.join('\n');
}

let service: ReturnType<typeof spawn> | undefined;
try {
  say(`first payment from a fresh clone of ${ROOT} (${process.env.BENCH_WARM_CACHE ? 'warm' : 'cold'} npm cache)`);
  const cloned = timed('git clone', () => spawnSync('git', ['clone', '--quiet', ROOT, clone], { stdio: 'ignore' }));
  if (cloned.value.status !== 0) throw new Error('git clone failed');
  const cache = process.env.BENCH_WARM_CACHE ? {} : { npm_config_cache: join(work, 'npm-cache') };
  const installed = timed('npm ci', () => run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], cache));

  const port = await freePort();
  const dataDir = join(work, 'data');
  const env = { ...process.env, TMPDIR: privateTmp, PORT: String(port), DATA_DIR: dataDir };
  const startedAt = performance.now();
  service = spawn('npm', ['start'], { cwd: clone, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  service.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  service.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((done, fail) => {
    const poll = setInterval(() => {
      if (output.includes('Click to Pay service running at')) {
        clearInterval(poll);
        done();
      }
    }, 100);
    service!.once('exit', (code) => fail(new Error(`npm start exited (${code}):\n${output.slice(-2000)}`)));
  });
  const upMs = performance.now() - startedAt;
  say(`${'npm start, to its banner'.padEnd(34)} ${seconds(upMs)}`);

  const paid = timed('the README walk-through (all of it)', () =>
    spawnSync('bash', ['-c', `set -euo pipefail\n${walkThrough()}`], { cwd: clone, env, encoding: 'utf8', timeout: 300_000 }),
  );
  if (paid.value.status !== 0 || !paid.value.stdout.includes('AUTHORISED')) {
    throw new Error(`the walk-through did not pay:\n${paid.value.stderr.slice(-2000)}`);
  }
  say(`${'clone to first payment'.padEnd(34)} ${seconds(cloned.ms + installed.ms + upMs + paid.ms)}`);
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  say(`(load average at the end: ${load}; ${spawnSync('nproc', { encoding: 'utf8' }).stdout.trim()} cores)`);
} finally {
  if (service) await stopGroup(service);
  rmSync(work, { recursive: true, force: true });
}
