import { existsSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { run } from '../support/local-service.js';

/**
 * `npm run load` must not rot: run it with tiny numbers through its own `npm start`. No timing
 * is asserted, only that it drives 4.1 and 4.3, prints its table, fails a run whose payments do
 * not end AUTHORISED, and leaves neither the service's processes nor its data directory behind.
 */
// Each case starts the whole service (esbuild of every function) on a 2-core machine.
vi.setConfig({ testTimeout: 300_000 });

const TINY = { LOAD_SECONDS: '2', LOAD_CONCURRENCY: '2', LOAD_PAYMENTS: '3' };

/** The process group and the temporary data directory the run prints. */
function serviceOf(stdout: string): { group: number; dataDir: string } {
  const dataDir = /\(data (\/\S+)\)/.exec(stdout)?.[1];
  const group = /process group (\d+)/.exec(stdout)?.[1];
  expect(dataDir, stdout).toBeDefined();
  expect(group, stdout).toBeDefined();
  return { group: Number(group), dataDir: dataDir! };
}

/** True once no process of the group is left (npm, serverless-offline, dynalite, the KMS server). */
async function groupGone(group: number): Promise<boolean> {
  const anyLeft = () => {
    try {
      process.kill(-group, 0);
      return true;
    } catch {
      return false;
    }
  };
  while (anyLeft()) await new Promise((resolve) => setTimeout(resolve, 200));
  return true;
}

describe('npm run load', () => {
  it('drives 4.1 and 4.3 through npm start, prints the table, exits 0 and stops the service', async () => {
    const result = await run('npm', ['run', 'load'], TINY);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toContain('concurrency 2 · 4.1 for 2 s · 4.3 × 3');
    expect(result.stdout).toMatch(/^endpoint\s+conc\s+seconds\s+requests\s+req\/s\s+p50 ms\s+p99 ms\s+non-2xx\s+errors$/m);
    expect(result.stdout).toMatch(/^4\.1 GET merchant config\s+2\s+\d+\.\d\s+[1-9]\d*\s+\d+\.\d\s+\d+\s+\d+\s+0\s+0$/m);
    // Exactly the prepared payments, each once; concurrency 2 (never more than the payments).
    expect(result.stdout).toMatch(/^4\.3 POST click-to-pay\s+2\s+\d+\.\d\s+3\s+\d+\.\d\s+\d+\s+\d+\s+0\s+0$/m);
    expect(result.stdout).toContain('load: every request answered 2xx, 0 errors');
    const { group, dataDir } = serviceOf(result.stdout);
    expect(await groupGone(group)).toBe(true);
    expect(existsSync(dataDir)).toBe(false);
  });

  it("payments that do not end AUTHORISED fail the run: exit 1, the counts, the service's log tail", async () => {
    // 1051: the sandbox acquirer declines; 4.3 answers 200 with state FAILED, which is not a success here.
    const result = await run('npm', ['run', 'load'], { ...TINY, LOAD_AMOUNT: '1051' });
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(1);
    expect(result.stdout).toMatch(/^4\.3 POST click-to-pay\s+2\s+\d+\.\d\s+3\s+.*\s3$/m);
    expect(result.stdout).toContain('load: FAILED');
    expect(result.stderr).toContain("the service's last log lines");
    expect(result.stderr).toMatch(/"message":"payment finished"/);
    const { group, dataDir } = serviceOf(result.stdout);
    expect(await groupGone(group)).toBe(true);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('refuses a malformed setting before starting anything', async () => {
    const result = await run('npm', ['run', 'load'], { LOAD_CONCURRENCY: 'many' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('LOAD_CONCURRENCY');
    expect(result.stdout).not.toContain('starting npm start');
  });
});
