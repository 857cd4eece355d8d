/**
 * The local stand-in for EventBridge's schedule (SPEC §4.15 delivery): invokes a function of
 * the running serverless-offline through its Lambda Invoke API, every `everyMs`, one call at a
 * time. The function is the same handler that AWS invokes every minute; dynalite has no
 * streams, so locally this loop is also the fast path — a new event is delivered within about
 * a second of the write that made it. It logs only invocations that did something (processed
 * a due item) or failed, and a failure once until invocations work again.
 */
export interface LocalSchedule {
  stop(): Promise<void>;
}

export function startLocalSchedule(options: { lambdaPort: number; functionName: string; everyMs: number; log: (line: string) => void }): LocalSchedule {
  const url = `http://127.0.0.1:${options.lambdaPort}/2015-03-31/functions/${options.functionName}/invocations`;
  let stopped = false;
  let failing = false;
  let wake: (() => void) | undefined;
  const loop = (async () => {
    while (!stopped) {
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ source: 'local.schedule', 'detail-type': 'Scheduled Event', time: new Date().toISOString() }),
          signal: AbortSignal.timeout(70_000),
        });
        const text = await response.text();
        if (!response.ok) throw new Error(`status ${response.status}`);
        if (failing) options.log(`${options.functionName}: scheduled invocations work again`);
        failing = false;
        // Quiet when there was nothing to do (nearly every second); the handler logs each
        // delivery and failure itself, this line says that an invocation did some work.
        const processed = processedCount(text);
        if (processed > 0) options.log(`${options.functionName}: ${processed} due item${processed === 1 ? '' : 's'} processed`);
      } catch (error) {
        if (!failing && !stopped)
          options.log(`${options.functionName}: scheduled invocation failed (${(error as Error).message}); retrying every ${options.everyMs} ms`);
        failing = true;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, options.everyMs).unref();
      });
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      wake?.();
      // An invocation under way ends with serverless-offline, which stops next.
      await Promise.race([loop, new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
    },
  };
}

/** The worker's answer to a scheduled invocation is `{ processed: n }` (functions/webhook-delivery). */
function processedCount(body: string): number {
  try {
    const processed = (JSON.parse(body) as { processed?: unknown }).processed;
    return typeof processed === 'number' ? processed : 0;
  } catch {
    return 0;
  }
}
