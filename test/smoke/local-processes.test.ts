import { readFile, rm, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort, startService, type Demo, type RunningService, alive } from '../support/local-service.js';

/**
 * SPEC §7: `npm start` runs its DynamoDB and KMS as processes of their own. Freezing one
 * (SIGSTOP) makes the API answer 503 DEPENDENCY_UNAVAILABLE with Retry-After (SPEC §2, §6);
 * resuming it (SIGCONT) brings 200 back; one that is killed is started again on the same port
 * and the API, which keeps its endpoints, recovers with the data intact. And nothing is left
 * behind when npm start itself is killed with SIGKILL.
 */
vi.setConfig({ testTimeout: 90_000 });

let service: RunningService;
let dataDir: string;
let port: number;
let base: string;

/** With CORS configured, as a deployment with the corsAllowedOrigins param (the default is in local-service.test.ts). */
const SHOP = 'https://shop.example.com';
const env = () => ({ PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'info', CORS_ALLOWED_ORIGINS: SHOP });
const demo = async (): Promise<Demo> => JSON.parse(await readFile(join(dataDir, 'demo.json'), 'utf8')) as Demo;

/** A request bounded on the client side, so a hanging API fails the test instead of stalling it. */
async function get(path: string, boundMs = 20_000) {
  const response = await fetch(`${base}${path}`, {
    headers: { Authorization: `Bearer ${service.demo.tokens.tenant}` },
    signal: AbortSignal.timeout(boundMs),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

/** Polls until check() holds; the test's own timeout is the only bound. */
async function eventually<T>(check: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

const configPath = () => `/config/merchants/${service.demo.merchantRef}/configs/vctp`;
const keysPath = '/config/configs/vctp/encryption-keys';

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'ctp-processes-'));
  port = await freePort();
  base = `http://localhost:${port}`;
  service = await startService(env());
}, 200_000);

afterEach((context) => {
  if (context.task.result?.state === 'fail') console.error(`--- npm start output (tail) ---\n${service?.output().slice(-6000)}`);
});

afterAll(async () => {
  // Whatever a failed test left frozen must not outlive the run.
  const local = service ? (await demo().catch(() => undefined))?.local : undefined;
  for (const pid of [local?.dynamodb.pid, local?.kms.pid]) if (pid && alive(pid)) process.kill(pid, 'SIGCONT');
  // The last test SIGKILLs npm itself; stop() is for a service that still runs.
  if (service && service.process.exitCode === null && service.process.signalCode === null) await service.stop();
  await rm(dataDir, { recursive: true, force: true });
}, 30_000);

describe('npm start with CORS_ALLOWED_ORIGINS: CORS as API Gateway does it with that configuration', () => {
  const corsOf = (response: Response) => {
    const found: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (name.startsWith('access-control-')) found[name] = value;
    });
    return found;
  };
  const preflight = (origin: string) =>
    fetch(`${base}/transactions/outlets/${service.demo.outletId}/orders`, {
      method: 'OPTIONS',
      headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' },
    });
  const plain = (origin: string) => fetch(`${base}${keysPath}`, { headers: { Origin: origin, Authorization: `Bearer ${service.demo.tokens.tenant}` } });

  it('the listed origin gets its preflight answered and its origin allowed, without credentials', async () => {
    const answer = await preflight(SHOP);
    expect(answer.status).toBe(204);
    expect(corsOf(answer)).toMatchObject({ 'access-control-allow-origin': SHOP, 'access-control-max-age': '600' });
    expect(corsOf(answer)['access-control-allow-headers']).toContain('Idempotency-Key');
    const response = await plain(SHOP);
    expect(response.status).toBe(200);
    expect(corsOf(response)['access-control-allow-origin']).toBe(SHOP);
    expect(corsOf(response)['access-control-allow-credentials']).toBeUndefined();
  });

  it.each(['https://evil.example', 'null'])('Origin: %s gets no CORS header, on a preflight or a GET', async (origin) => {
    expect(corsOf(await preflight(origin))).toEqual({});
    const response = await plain(origin);
    expect(response.status).toBe(200);
    expect(corsOf(response)).toEqual({});
  });
});

describe('npm start runs DynamoDB and KMS as processes of their own', () => {
  it('prints their pids and ports in the banner and in demo.json', async () => {
    const { local } = service.demo;
    expect(local.dynamodb).toMatchObject({ engine: process.env.LOCAL_DYNAMODB_ENGINE ?? 'dynalite', endpoint: `http://127.0.0.1:${local.dynamodb.port}` });
    expect(local.kms.endpoint).toBe(`http://127.0.0.1:${local.kms.port}`);
    for (const pid of [local.dynamodb.pid, local.kms.pid, local.api.pid]) {
      expect(alive(pid)).toBe(true);
      expect(pid).not.toBe(service.process.pid);
    }
    expect(service.output()).toContain(`pid ${local.dynamodb.pid}`);
    expect(service.output()).toContain(`pid ${local.kms.pid}`);
  });

  it('a frozen DynamoDB gives 503 DEPENDENCY_UNAVAILABLE with Retry-After; resumed, 200 again', async () => {
    expect((await get(configPath())).status).toBe(200);
    const { pid } = (await demo()).local.dynamodb;
    process.kill(pid, 'SIGSTOP');
    let frozen: Awaited<ReturnType<typeof get>>;
    try {
      frozen = await get(configPath());
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    expect(frozen.status, JSON.stringify(frozen.body)).toBe(503);
    expect(frozen.body).toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE' });
    expect(frozen.headers.get('retry-after')).toMatch(/^\d+$/);
    const after = await eventually(async () => ((await get(configPath())).status === 200 ? true : undefined));
    expect(after).toBe(true);
  });

  it('a killed KMS is started again on the same port; the API recovers with the same keys', async () => {
    const before = await get(keysPath);
    expect(before.status).toBe(200);
    const { kms } = (await demo()).local;
    process.kill(kms.pid, 'SIGKILL');
    const restarted = await eventually(async () => {
      const now = (await demo()).local.kms;
      return now.pid !== kms.pid ? now : undefined;
    });
    expect(restarted).toMatchObject({ port: kms.port, endpoint: kms.endpoint, restarts: kms.restarts + 1 });
    expect(alive(kms.pid)).toBe(false);
    const after = await eventually(async () => {
      const response = await get(keysPath);
      return response.status === 200 ? response : undefined;
    });
    expect(after.body).toEqual(before.body);
  });

  it('a killed DynamoDB is started again on the same port; the data is still there', async () => {
    const { dynamodb } = (await demo()).local;
    process.kill(dynamodb.pid, 'SIGKILL');
    const restarted = await eventually(async () => {
      const now = (await demo()).local.dynamodb;
      return now.pid !== dynamodb.pid ? now : undefined;
    });
    expect(restarted.port).toBe(dynamodb.port);
    const config = await eventually(async () => {
      const response = await get(configPath());
      return response.status === 200 ? response : undefined;
    });
    expect(config.body).toMatchObject({ dpaName: 'Demo Shop' });
  });

  it('npm start killed with SIGKILL takes DynamoDB, KMS and the API with it', async () => {
    const { local } = await demo();
    const pids = [local.dynamodb.pid, local.kms.pid, local.api.pid];
    const exited = new Promise((resolve) => service.process.once('exit', resolve));
    // Only npm itself, not its process group: what a crashed terminal or `kill -9 <npm pid>` does.
    process.kill(service.process.pid!, 'SIGKILL');
    await exited;
    const gone = await eventually(() => (pids.every((pid) => !alive(pid)) ? true : undefined));
    expect(gone).toBe(true);
  });
});
