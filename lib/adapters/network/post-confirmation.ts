import { withCallSignal } from '../../core/deadline.js';
import type { ConfirmationResult } from '../../core/ports/network-client.js';

/** Mastercard answers a confirmation within seconds; the claim (30 s) outlives this by far. */
export const CONFIRMATION_TIMEOUT_MS = 10_000;

/**
 * POSTs a confirmation body and reports the outcome: ok on any 2xx (Mastercard answers 204),
 * else the status or what went wrong (timeout, connection refused). Never throws, never reads
 * more than the status: an error body may echo what we sent, and nothing needs it.
 */
export async function postConfirmation(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs = CONFIRMATION_TIMEOUT_MS,
): Promise<ConfirmationResult> {
  const started = Date.now();
  try {
    // Bounded by its own timeout and by the invocation's deadline, as every dependency call is (SPEC §6).
    const response = await withCallSignal(timeoutMs, async (signal) => {
      const answer = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...headers },
        body,
        redirect: 'manual',
        signal,
      });
      await answer.body?.cancel().catch(() => undefined);
      return answer;
    });
    const ok = response.status >= 200 && response.status < 300;
    return { ok, status: response.status, durationMs: Date.now() - started };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    return { ok: false, error: name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'unreachable', durationMs: Date.now() - started };
  }
}
