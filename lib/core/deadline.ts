import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The invocation's deadline (SPEC §6): set once per Lambda invocation by the API handler
 * wrapper, read by every dependency call (DynamoDB, KMS, JWKS, acquirer) so that nothing
 * keeps running, or starts, after the function has answered. Ambient on purpose: the
 * repositories and adapters need it, and threading a signal through every port would put
 * a transport concern into every use-case signature.
 */
export interface Deadline {
  /** Aborts when the invocation's own budget is spent. */
  signal: AbortSignal;
  /** Epoch ms at which `signal` aborts. */
  at: number;
}

const storage = new AsyncLocalStorage<Deadline>();

export function runWithDeadline<T>(deadline: Deadline, work: () => Promise<T>): Promise<T> {
  return storage.run(deadline, work);
}

export function currentDeadline(): Deadline | undefined {
  return storage.getStore();
}

/**
 * Milliseconds left before the invocation's deadline (Infinity outside an invocation). Wall
 * time on purpose: the deadline is Lambda's own budget, not the domain's clock (a test that
 * freezes the use cases' clock still runs against real time here).
 */
export function remainingMs(now = Date.now()): number {
  const deadline = storage.getStore();
  return deadline ? deadline.at - now : Number.POSITIVE_INFINITY;
}

/**
 * Runs one dependency call with a signal that aborts at its own timeout or at the
 * invocation's deadline, whichever comes first, and cleans up after it. Not built on
 * `AbortSignal.any(AbortSignal.timeout(…), …)`: that composite holds its sources weakly, so a
 * collected timeout signal would never fire (seen here: a frozen call ran to the deadline).
 */
export async function withCallSignal<T>(timeoutMs: number, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
  const deadline = storage.getStore();
  const onDeadline = () => controller.abort(new DOMException('the invocation reached its deadline', 'TimeoutError'));
  if (deadline?.signal.aborted) onDeadline();
  else deadline?.signal.addEventListener('abort', onDeadline, { once: true });
  try {
    return await call(controller.signal);
  } finally {
    clearTimeout(timer);
    deadline?.signal.removeEventListener('abort', onDeadline);
  }
}
