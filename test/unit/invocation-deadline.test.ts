import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentClient } from '../../lib/composition/aws.js';
import { currentDeadline, remainingMs, runWithDeadline, withCallSignal } from '../../lib/core/deadline.js';
import { authenticator } from '../../lib/composition/core.js';
import { apiHandler } from '../../lib/http/api-handler.js';
import { withInvocationDeadline } from '../../lib/http/invocation-deadline.js';
import { invoke } from '../support/invoke.js';
import { platformToken } from '../support/tokens.js';

/** SPEC §2/§6: a 503 with Retry-After, never a 500, never after the function's deadline. */
describe('the invocation deadline', () => {
  it('a handler that ignores every signal is answered by middy with 503 before Lambda’s timeout', async () => {
    const stuck = apiHandler({ routes: ['GET /stuck'], access: { kind: 'any' } }, { authenticator }, () => new Promise(() => undefined));
    const started = Date.now();
    const response = await invoke(stuck, { token: await platformToken(), timeoutMs: 1_500 });
    const elapsed = Date.now() - started;
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE', status: 503 });
    expect(response.headers['Retry-After']).toBe('1');
    expect(elapsed).toBeLessThan(1_500); // before the (simulated) Lambda timeout
  });

  it('every dependency call inside an invocation sees its deadline, a second before Lambda’s', async () => {
    let seen: { remaining: number; aborted: boolean } | undefined;
    const probe = withInvocationDeadline(async () => {
      seen = { remaining: remainingMs(), aborted: currentDeadline()!.signal.aborted };
      return 'ok';
    });
    await probe({}, { getRemainingTimeInMillis: () => 6_000 } as never);
    expect(seen!.aborted).toBe(false);
    expect(seen!.remaining).toBeGreaterThan(4_500);
    expect(seen!.remaining).toBeLessThanOrEqual(5_000);
    expect(remainingMs()).toBe(Number.POSITIVE_INFINITY); // outside an invocation
  });

  it('a DynamoDB call started after the deadline fails at once as unavailable, and changes nothing', async () => {
    const late = withInvocationDeadline(() => documentClient.send(new GetCommand({ TableName: process.env.CONFIG_TABLE!, Key: { pk: 'x', sk: 'y' } })));
    const error = await late({}, { getRemainingTimeInMillis: () => 1_000 } as never).catch((e: unknown) => e);
    expect((error as Error).name).toMatch(/AbortError|TimeoutError/);
  });

  it('a call’s signal aborts at its own timeout, or at the invocation’s deadline if that comes first', async () => {
    const waitForAbort = (signal: AbortSignal) =>
      new Promise<string>((resolve) => signal.addEventListener('abort', () => resolve((signal.reason as Error).message)));
    const started = Date.now();
    expect(await withCallSignal(50, waitForAbort)).toMatch(/no answer within 50 ms/);
    const deadline = { signal: AbortSignal.timeout(30), at: Date.now() + 30 };
    expect(await runWithDeadline(deadline, () => withCallSignal(5_000, waitForAbort))).toMatch(/deadline/);
    expect(Date.now() - started).toBeLessThan(5_000);
    const done = new AbortController();
    await runWithDeadline({ signal: done.signal, at: Infinity }, () => withCallSignal(5_000, async () => 'ok'));
    done.abort(); // nothing listens any more: no late abort reaches a finished call
  });
});
