import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProcessorMaybeSentError } from '../../../lib/adapters/processors/transport/failures.js';
import { callJson } from '../../../lib/adapters/processors/transport/json-http.js';

// The collector on demand, as `node --expose-gc` gives it (the flag set at run time).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/**
 * A processor that reads the request and never answers: only the endpoint's own timeout can end
 * the call (the caller's signal never aborts). That timeout must fire whatever the garbage
 * collector does meanwhile: a timeout signal that only a composite signal refers to
 * (`AbortSignal.any([signal, AbortSignal.timeout(ms)])`) can be collected before it fires.
 */
describe('callJson: the endpoint timeout', () => {
  let url: string;
  const held: ServerResponse[] = [];
  const server = createServer((_req, res) => {
    held.push(res);
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const res of held) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('ends a call the processor never answers, even with the collector running while it waits', async () => {
    const caller = new AbortController(); // never aborted: the endpoint's timeout alone must end the call
    const call = callJson({ processor: 'p', baseUrl: url, timeoutMs: 300, headers: {} }, { method: 'POST', path: '/hang', body: {} }, caller.signal).then(
      () => 'answered',
      (error: unknown) => error,
    );
    const collecting = setInterval(gc, 50);
    const stillWaiting = new Promise((resolve) => setTimeout(() => resolve('still waiting 10 s later'), 10_000));
    try {
      const outcome = await Promise.race([call, stillWaiting]);
      expect(outcome).toBeInstanceOf(ProcessorMaybeSentError);
      expect(outcome).toMatchObject({ reason: 'timeout' });
    } finally {
      clearInterval(collecting);
    }
    expect(caller.signal.aborted).toBe(false);
  });
});
