import autocannon, { type Options, type Result } from 'autocannon';
import type { LoadPayment } from './load-payments.js';
import type { Target } from './load-service.js';

/** One measured run, as the table prints it. */
export interface Row {
  name: string;
  concurrency: number;
  seconds: number;
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** Connection errors and timeouts, plus 2xx answers whose body is not what the endpoint must say. */
  errors: number;
  statuses: string;
}

/**
 * One autocannon run. A 2xx whose body lacks `expected` (a declined payment answers 200 too)
 * counts as an error; a non-2xx counts once, as non-2xx. `seconds` runs from the first request
 * to the last response: autocannon's own `duration` ends on its next 1 s tick.
 */
async function run(name: string, options: Options, expected: string): Promise<Row> {
  let wrongBodies = 0;
  const onResponse = (status: number, body: string) => {
    if (status >= 200 && status < 300 && !body.includes(expected)) wrongBodies++;
  };
  const started = performance.now();
  let lastResponse = started;
  const result = await new Promise<Result>((resolve, reject) => {
    const requests = (options.requests ?? [{}]).map((request) => ({ ...request, onResponse }));
    const instance = autocannon({ ...options, requests, timeout: 30 }, (error, done) => (error ? reject(error) : resolve(done)));
    instance.on('response', () => (lastResponse = performance.now()));
  });
  const seconds = (lastResponse - started) / 1000;
  const requests = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'];
  return {
    name,
    concurrency: result.connections,
    seconds,
    requests,
    perSecond: seconds > 0 ? requests / seconds : 0,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + wrongBodies,
    statuses: Object.entries(result.statusCodeStats ?? {})
      .map(([code, s]) => `${code}×${s.count ?? 0}`)
      .join(' '),
  };
}

/** 4.1 with the demo tenant's token, for a duration, or for a number of requests (warm-up). */
export async function merchantConfig(target: Target, concurrency: number, length: { seconds: number } | { amount: number }): Promise<Row> {
  const { merchantRef, tokens } = target.demo;
  return run(
    '4.1 GET merchant config',
    {
      url: `${target.baseUrl}/config/merchants/${merchantRef}/configs/vctp`,
      connections: concurrency,
      ...('seconds' in length ? { duration: length.seconds } : { amount: Math.max(length.amount, concurrency) }),
      headers: { authorization: `Bearer ${tokens.tenant}` },
    },
    '"clickToPayEnabled":true',
  );
}

/**
 * 4.3 once for each prepared payment, each request with its own path, session token and
 * checkout response. autocannon builds a connection's next request only when it will send it
 * (and stops at `amount`), so handing out the payments in order uses each exactly once.
 */
export async function clickToPay(target: Target, concurrency: number, payments: LoadPayment[]): Promise<Row> {
  let next = 0;
  return run(
    '4.3 POST click-to-pay',
    {
      url: target.baseUrl,
      connections: Math.min(concurrency, payments.length),
      amount: payments.length,
      requests: [
        {
          method: 'POST',
          setupRequest: (request) => {
            // Only a connection that timed out and reconnected asks for more than `amount`; it gets
            // the last payment again (answered from the stored result), and the timeout is already an error.
            const payment = payments[Math.min(next++, payments.length - 1)]!;
            return {
              ...request,
              method: 'POST',
              path: payment.path,
              headers: { ...request.headers, authorization: `Bearer ${payment.sessionToken}`, 'content-type': 'application/json' },
              body: payment.body,
            };
          },
        },
      ],
    },
    '"state":"AUTHORISED"',
  );
}

const n = (value: number, digits = 0, width = 9) => value.toFixed(digits).padStart(width);

export const TABLE_HEADER = 'endpoint                   conc   seconds  requests    req/s   p50 ms   p99 ms  non-2xx   errors';

export function formatRow(r: Row): string {
  return `${r.name.padEnd(25)} ${n(r.concurrency, 0, 5)} ${n(r.seconds, 1)} ${n(r.requests)} ${n(r.perSecond, 1, 8)} ${n(r.p50, 0, 8)} ${n(r.p99, 0, 8)} ${n(r.non2xx, 0, 8)} ${n(r.errors, 0, 8)}`;
}
