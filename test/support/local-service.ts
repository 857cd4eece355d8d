import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import type { DemoFile } from '../../infra/local/demo-file.js';
export { freePort } from '../../infra/local/ports.js';

export type Demo = DemoFile;

export interface RunningService {
  process: ChildProcess;
  output: () => string;
  demo: Demo;
  stop: () => Promise<void>;
}

/** The test workers' environment points at the in-memory test stack: a user's shell does not. */
const TEST_STACK_VARIABLES =
  /^(DYNAMODB_ENDPOINT|KMS_ENDPOINT|PAYLOAD_KEY_IDS|PAYLOAD_KEY_NETWORK_KIDS|WEBHOOK_SECRETS_KEY_ID|NETWORK_JWKS_URLS|AUTH_ISSUER|AUTH_AUDIENCE|AUTH_JWKS_URL|PUBLIC_BASE_URL|SANDBOX_NETWORK_SIGNING_JWKS_URL|TEST_DATA_DIR|LOG_LEVEL|[A-Z]+_TABLE|VITEST.*)$/;
export function userEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !TEST_STACK_VARIABLES.test(name)));
  return { ...env, ...extra };
}

/** Runs `npm start` exactly as a user would, in its own process group, and waits for the banner. */
export async function startService(env: Record<string, string>, timeoutMs = 150_000): Promise<RunningService> {
  const child = spawn('npm', ['start'], {
    env: userEnvironment(env),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not come up:\n${output.slice(-3000)}`)), timeoutMs);
    const poll = setInterval(() => {
      if (output.includes('Click to Pay service running at')) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve();
      }
    }, 200);
    child.once('exit', (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code}:\n${output.slice(-3000)}`));
    });
  });
  const demo = JSON.parse(await readFile(`${env.DATA_DIR}/demo.json`, 'utf8')) as Demo;
  return { process: child, output: () => output, demo, stop: () => stopGroup(child) };
}

export async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }, 10_000);
  await exited;
  clearTimeout(timer);
}

/** Runs a command to completion and returns its streams. */
export function run(command: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: userEnvironment(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** True while a process with this pid exists (signal 0 only checks). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
