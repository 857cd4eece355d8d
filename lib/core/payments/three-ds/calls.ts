import { withCallSignal } from '../../deadline.js';
import { DomainError } from '../../errors.js';
import { ThreeDsServerCallError } from '../../ports/three-ds-server-error.js';

/**
 * One call to the 3DS Server, bounded (SPEC 4.17 "every 3DS Server call has a deadline"): its
 * own timeout and the invocation's deadline, whichever comes first, with the signal handed to
 * the adapter. An adapter that ignores its signal does not hold the payment either: the race
 * ends at the abort, as `maybe-sent` (the request may have left). A deadline already spent
 * sends nothing (`not-sent`). A DomainError (the sandbox's own store answering 503) passes as it is.
 */
export function callThreeDsServer<T>(endpoint: string, timeoutMs: number, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  return withCallSignal(timeoutMs, async (signal) => {
    if (signal.aborted) throw new ThreeDsServerCallError('not-sent', endpoint, { reason: 'the deadline had passed before the call' });
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(new ThreeDsServerCallError('maybe-sent', endpoint, { reason: `no answer within ${timeoutMs} ms or the deadline` }));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([call(signal), aborted]);
    } catch (error) {
      if (error instanceof ThreeDsServerCallError || error instanceof DomainError) throw error;
      // Anything else an adapter throws says nothing about whether the request left.
      throw new ThreeDsServerCallError('maybe-sent', endpoint, { reason: 'the adapter failed', cause: error });
    } finally {
      if (onAbort) signal.removeEventListener('abort', onAbort);
    }
  });
}
