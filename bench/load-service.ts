import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import type { DemoFile } from '../infra/local/demo-file.js';
import { stopGroup, userEnvironment } from '../test/support/local-service.js';

/** What `npm run load` needs of a running service: where it is, and the demo world's tokens. */
export interface Target {
  baseUrl: string;
  demo: DemoFile;
}

export interface LaunchedService {
  child: ChildProcess;
  /** Resolves once the banner is printed and demo.json written; rejects if npm start exits first. */
  ready: Promise<Target>;
  /** The last lines npm start printed (its handlers' JSON logs included), for a failure report. */
  tail: () => string;
  stop: () => Promise<void>;
}

const TAIL_LINES = 40;
const BANNER = 'Click to Pay service running at';

/**
 * `npm start` exactly as a user runs it, in a process group of its own (so stopping it stops
 * serverless-offline, dynalite and the KMS server with it), on its own port and data directory.
 * The handle exists before the service is up, so a Ctrl-C during the (slow) first build still
 * stops it. Only a bounded tail of its output is kept: under load it logs a line per request.
 */
export function launchService(port: number, dataDir: string, timeoutMs = 240_000): LaunchedService {
  const child = spawn('npm', ['start'], {
    env: userEnvironment({ PORT: String(port), DATA_DIR: dataDir }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const lines: string[] = [];
  let partial = '';
  let bannerSeen = false;
  const keep = (chunk: Buffer) => {
    const parts = (partial + chunk.toString()).split('\n');
    partial = parts.pop()!;
    for (const line of parts) {
      if (line.includes(BANNER)) bannerSeen = true;
      if (line.trim()) lines.push(line) > TAIL_LINES && lines.shift();
    }
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const tail = () => [...lines, partial].filter(Boolean).join('\n');

  const up = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`npm start did not come up within ${timeoutMs / 1000} s`)), timeoutMs);
    const poll = setInterval(() => bannerSeen && finish(), 200);
    const onExit = (code: number | null) => finish(new Error(`npm start exited with ${code} before it was up`));
    child.once('exit', onExit);
    function finish(error?: Error) {
      clearInterval(poll);
      clearTimeout(timer);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve();
    }
  });
  const ready = up.then(async () => {
    const demo = JSON.parse(await readFile(`${dataDir}/demo.json`, 'utf8')) as DemoFile;
    return { baseUrl: `http://localhost:${port}`, demo };
  });
  return { child, ready, tail, stop: () => stopGroup(child) };
}

/** A service someone already runs (LOAD_BASE_URL): its demo.json says which tokens work. */
export async function existingService(baseUrl: string, dataDir: string): Promise<Target> {
  const text = await readFile(`${dataDir}/demo.json`, 'utf8').catch(() => {
    throw new Error(`LOAD_BASE_URL is set but ${dataDir}/demo.json is missing: set DATA_DIR to the running service's data directory`);
  });
  return { baseUrl: baseUrl.replace(/\/+$/, ''), demo: JSON.parse(text) as DemoFile };
}
