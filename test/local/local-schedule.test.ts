// The local stand-in for EventBridge's schedule (infra/local/local-schedule.ts) against a stand-in
// for serverless-offline's Lambda Invoke API. Self-contained: no global stack needed.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startLocalSchedule, type LocalSchedule } from '../../infra/local/local-schedule.js';

const FUNCTION = 'click-to-pay-local-webhookDelivery';
let server: Server | undefined;
let schedule: LocalSchedule | undefined;

/** Answers the n-th invocation with answers[n] (the last one repeats): a status and a body. */
async function lambdaApi(answers: { status: number; body: string }[]): Promise<{ port: number; invocations: () => number }> {
  let count = 0;
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const answer = answers[Math.min(count, answers.length - 1)]!;
      count += 1;
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, invocations: () => count };
}

afterEach(async () => {
  await schedule?.stop();
  schedule = undefined;
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

describe('the local schedule logs only invocations that did something or failed', () => {
  it('says nothing while the worker has nothing to do, one line when it processed due items', async () => {
    const idle = { status: 200, body: '{"processed":0}' };
    const api = await lambdaApi([idle, idle, idle, { status: 200, body: '{"processed":2}' }, idle, { status: 200, body: '{"processed":1}' }, idle]);
    const lines: string[] = [];
    schedule = startLocalSchedule({ lambdaPort: api.port, functionName: FUNCTION, everyMs: 20, log: (line) => lines.push(line) });
    await vi.waitFor(() => expect(api.invocations()).toBeGreaterThan(8), { timeout: 10_000 });
    expect(lines).toEqual([`${FUNCTION}: 2 due items processed`, `${FUNCTION}: 1 due item processed`]);
  });

  it('a failing invocation is one line until invocations work again, then one line saying so', async () => {
    const failing = { status: 502, body: '{"message":"boom"}' };
    const api = await lambdaApi([failing, failing, failing, { status: 200, body: '{"processed":0}' }]);
    const lines: string[] = [];
    schedule = startLocalSchedule({ lambdaPort: api.port, functionName: FUNCTION, everyMs: 20, log: (line) => lines.push(line) });
    await vi.waitFor(() => expect(api.invocations()).toBeGreaterThan(6), { timeout: 10_000 });
    expect(lines).toEqual([`${FUNCTION}: scheduled invocation failed (status 502); retrying every 20 ms`, `${FUNCTION}: scheduled invocations work again`]);
  });

  it('an answer that is not the worker’s { processed } counts as nothing done, not as a failure', async () => {
    const api = await lambdaApi([
      { status: 200, body: 'null' },
      { status: 200, body: 'not json' },
    ]);
    const lines: string[] = [];
    schedule = startLocalSchedule({ lambdaPort: api.port, functionName: FUNCTION, everyMs: 20, log: (line) => lines.push(line) });
    await vi.waitFor(() => expect(api.invocations()).toBeGreaterThan(3), { timeout: 10_000 });
    expect(lines).toEqual([]);
  });
});
