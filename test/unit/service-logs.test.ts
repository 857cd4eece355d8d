import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../support/local-service.js';

/**
 * `npm test` prints the reporter's output, not the service's logs: test/support/service-logs.ts
 * (a setup file of the suite) sends what the code under test writes on stdout to one file per
 * test file, and a failure names that file. Checked on a fixture run by a vitest of its own.
 */
const dir = await mkdtemp(join(tmpdir(), 'ctp-service-logs-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('service logs during npm test', () => {
  it('go to a file per test file, which the failure message names; the reporter shows none of them', async () => {
    const result = await run('npx', ['vitest', 'run', '--config', 'test/fixtures/service-logs/vitest.config.ts', '--reporter=default'], {
      SERVICE_LOG_DIR: dir,
      NO_COLOR: '1',
    });
    const output = result.stdout + result.stderr;
    expect(result.code, output).toBe(1);
    const logFile = join(dir, 'test__fixtures__service-logs__logs-and-fails.fixture.ts.log');
    expect(output).toContain("expected 'AUTHORISED' to be 'FAILED'");
    expect(output).toContain(`(the service's log lines of this file: ${logFile})`);
    expect(output).not.toContain('"level"');
    expect(output).not.toContain('"_aws"');
    const lines = (await readFile(logFile, 'utf8')).trim().split('\n');
    expect(lines.map((line) => JSON.parse(line).message ?? 'metrics')).toEqual(['payment failed', 'metrics', 'request completed']);
    expect(await readdir(dir)).toEqual(['test__fixtures__service-logs__logs-and-fails.fixture.ts.log']);
  }, 60_000);
});
