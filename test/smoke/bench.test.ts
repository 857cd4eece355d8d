import { spawn } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import { run, userEnvironment, alive } from '../support/local-service.js';

/**
 * `npm run bench` must not rot (issue: it answered 500 for months and nothing noticed): run it
 * with a handful of payments from this checkout. No timing is asserted, only that it works,
 * reports a failure with the service's log, and leaves no local stack behind.
 */
vi.setConfig({ testTimeout: 120_000 });

const SMALL = { BENCH_PAYMENTS: '4', BENCH_CONCURRENCY: '1,2' };

/** The pids the bench prints for its local DynamoDB and KMS. */
function stackPids(stdout: string): number[] {
  const line = /^local stack: .*$/m.exec(stdout)?.[0];
  expect(line, stdout).toBeDefined();
  return [...line!.matchAll(/pid (\d+)/g)].map((m) => Number(m[1]));
}

async function allGone(pids: number[]): Promise<boolean> {
  while (pids.some(alive)) await new Promise((resolve) => setTimeout(resolve, 200));
  return true;
}

describe('npm run bench', () => {
  it('runs a handful of payments, prints its table, exits 0 and stops its stack', async () => {
    const result = await run('npm', ['run', 'bench'], SMALL);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toContain('4 payments per level');
    expect(result.stdout).toMatch(/^path\s+conc\s+p50 ms\s+p95 ms\s+p99 ms\s+mean ms\s+pay\/s$/m);
    for (const level of [1, 2]) {
      expect(result.stdout).toMatch(new RegExp(`^handler\\s+${level}(\\s+\\d+\\.\\d\\d){4}\\s+\\d+$`, 'm'));
      expect(result.stdout).toMatch(new RegExp(`^floor\\s+${level}(\\s+\\d+\\.\\d\\d){4}\\s+\\d+$`, 'm'));
      expect(result.stdout).toMatch(new RegExp(`^minimal\\s+${level}(\\s+\\d+\\.\\d\\d){4}\\s+\\d+$`, 'm'));
      expect(result.stdout).toMatch(new RegExp(`concurrency\\s+${level}\\s+\\d`));
    }
    // The processor column: a production merchant on each processor fake, its overhead over the fake's time.
    for (const path of ['sandbox', 'adyen', 'checkout_com'])
      for (const level of [1, 2]) expect(result.stdout).toMatch(new RegExp(`^${path}\\s+${level}(\\s+-?\\d+\\.\\d\\d){4}\\s+-?\\d+\\.\\d\\d×$`, 'm'));
    expect(result.stdout.trimEnd().split('\n').at(-1)).toMatch(/^ratio to the minimal floor: p50 c=1 \d+\.\d\d, c=2 \d+\.\d\d$/);
    expect(await allGone(stackPids(result.stdout))).toBe(true);
  });

  it("a payment that fails stops the run with exit 1, the error and the service's last log lines", async () => {
    // 1051: the sandbox acquirer declines (INSUFFICIENT_FUNDS), so no payment ends AUTHORISED.
    const result = await run('npm', ['run', 'bench'], { ...SMALL, BENCH_AMOUNT: '1051' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('bench failed');
    expect(result.stderr).toContain('"state":"FAILED"');
    const tail = result.stderr.slice(result.stderr.indexOf("the service's last"));
    expect(tail).toMatch(/^\{"level":"info".*"message":"payment finished"/m);
    expect(await allGone(stackPids(result.stdout))).toBe(true);
  });

  it('SIGINT stops its local stack', async () => {
    // node itself (not npm or the tsx CLI): the signal reaches the bench and nothing else.
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts'], {
      env: userEnvironment({ BENCH_PAYMENTS: '5000', BENCH_CONCURRENCY: '1' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    while (!stdout.includes('preparing') && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 100));
    const pids = stackPids(stdout);
    expect(pids.every(alive)).toBe(true);
    child.kill('SIGINT');
    expect(await exited, stderr).toBe(130);
    expect(stderr).toContain('SIGINT, stopping the local stack');
    expect(await allGone(pids)).toBe(true);
  });
});
