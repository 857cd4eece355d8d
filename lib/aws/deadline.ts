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

/** Milliseconds left before the invocation's deadline (Infinity outside an invocation). */
export function remainingMs(now = Date.now()): number {
  const deadline = storage.getStore();
  return deadline ? deadline.at - now : Number.POSITIVE_INFINITY;
}

/** The signal for one dependency call: its own timeout, and the invocation's deadline. */
export function callSignal(timeoutMs: number): AbortSignal {
  const own = AbortSignal.timeout(timeoutMs);
  const deadline = storage.getStore();
  return deadline ? AbortSignal.any([own, deadline.signal]) : own;
}
