/**
 * The local stand-in for EventBridge's schedule (SPEC §4.15 delivery): invokes a function of
 * the running serverless-offline through its Lambda Invoke API, every `everyMs`, one call at a
 * time. The function is the same handler that AWS invokes every minute; dynalite has no
 * streams, so locally this loop is also the fast path — a new event is delivered within about
 * a second of the write that made it.
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
        await response.text();
        if (!response.ok) throw new Error(`status ${response.status}`);
        if (failing) options.log(`${options.functionName}: scheduled invocations work again`);
        failing = false;
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
