import { closeSync, fstatSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeEach, expect } from 'vitest';

/**
 * `npm test` prints the test reporter's output and nothing else: what the service writes on
 * stdout while a test file runs — its JSON log lines and EMF metrics, from handlers invoked in
 * this worker — goes to one file per test file, test-results/service-logs/<file>.log, and a
 * failing test's message names that file (rewritten each time that test file runs; a file that
 * stays empty is removed). Runs in every test worker (vitest setupFiles); vitest's own console
 * capture (console.log in a test) is not affected.
 */
const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** SERVICE_LOG_DIR overrides it (test/unit/service-logs.test.ts). */
export const SERVICE_LOG_DIR = process.env.SERVICE_LOG_DIR ?? join(ROOT, 'test-results', 'service-logs');

const testFile = relative(ROOT, expect.getState().testPath ?? 'unknown');
const logPath = join(SERVICE_LOG_DIR, `${testFile.replaceAll('/', '__')}.log`);
mkdirSync(SERVICE_LOG_DIR, { recursive: true });
const fd = openSync(logPath, 'w');

process.stdout.write = ((chunk: string | Uint8Array, encoding?: unknown, callback?: unknown) => {
  writeSync(fd, typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  const done = typeof encoding === 'function' ? encoding : callback;
  if (typeof done === 'function') (done as () => void)();
  return true;
}) as typeof process.stdout.write;

const shown = logPath.startsWith(`${ROOT}/`) ? relative(ROOT, logPath) : logPath;
beforeEach(({ onTestFailed }) => {
  onTestFailed(({ task }) => {
    for (const error of task.result?.errors ?? []) error.message = `${error.message}\n(the service's log lines of this file: ${shown})`;
  });
});

afterAll(() => {
  const empty = fstatSync(fd).size === 0;
  closeSync(fd);
  if (empty) rmSync(logPath, { force: true }); // only files that say something stay
});
