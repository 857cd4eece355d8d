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

interface Timed {
  result: Result;
  /** From the first request to the last response: autocannon's own `duration` ends on its next 1 s tick. */
  seconds: number;
}

async function run(options: Options): Promise<Timed> {
  const started = performance.now();
  let lastResponse = started;
  const result = await new Promise<Result>((resolve, reject) => {
    const instance = autocannon({ ...options, timeout: 30 }, (error, done) => (error ? reject(error) : resolve(done)));
    instance.on('response', () => (lastResponse = performance.now()));
  });
  return { result, seconds: (lastResponse - started) / 1000 };
}

function row(name: string, { result, seconds }: Timed): Row {
  const requests = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'];
  const statuses = Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => `${code}×${s.count ?? 0}`).join(' ');
  return {
    name,
    concurrency: result.connections,
    seconds,
    requests,
    perSecond: seconds > 0 ? requests / seconds : 0,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.mismatches,
    statuses,
  };
}

/** 4.1 with the demo tenant's token, for a duration, or for a number of requests (warm-up). */
export async function merchantConfig(target: Target, concurrency: number, length: { seconds: number } | { amount: number }): Promise<Row> {
  const { merchantRef, tokens } = target.demo;
  const result = await run({
    url: `${target.baseUrl}/config/merchants/${merchantRef}/configs/vctp`,
    connections: concurrency,
    ...('seconds' in length ? { duration: length.seconds } : { amount: Math.max(length.amount, concurrency) }),
    headers: { authorization: `Bearer ${tokens.tenant}` },
    verifyBody: (body) => String(body).includes('"clickToPayEnabled":true'),
  });
  return row('4.1 GET merchant config', result);
}

/**
 * 4.3 once for each prepared payment, each request with its own path, session token and
 * checkout response. autocannon builds a connection's next request only when it will send it
 * (and stops at `amount`), so handing out the payments in order uses each exactly once.
 */
export async function clickToPay(target: Target, concurrency: number, payments: LoadPayment[]): Promise<Row> {
  let next = 0;
  const result = await run({
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
    verifyBody: (body) => String(body).includes('"state":"AUTHORISED"'),
  });
  return row('4.3 POST click-to-pay', result);
}

const n = (value: number, digits = 0, width = 9) => value.toFixed(digits).padStart(width);

export const TABLE_HEADER = 'endpoint                   conc   seconds  requests    req/s   p50 ms   p99 ms  non-2xx   errors';

export function formatRow(r: Row): string {
  return `${r.name.padEnd(25)} ${n(r.concurrency, 0, 5)} ${n(r.seconds, 1)} ${n(r.requests)} ${n(r.perSecond, 1, 8)} ${n(r.p50, 0, 8)} ${n(r.p99, 0, 8)} ${n(r.non2xx, 0, 8)} ${n(r.errors, 0, 8)}`;
}
