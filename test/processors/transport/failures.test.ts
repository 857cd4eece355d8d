import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyFetchFailure, ProcessorMaybeSentError, ProcessorNotReachedError } from '../../../lib/adapters/processors/transport/failures.js';
import { callJson } from '../../../lib/adapters/processors/transport/json-http.js';
import { OperationNotPerformedError } from '../../../lib/core/ports/authorizer.js';

const withCode = (code: string) => new TypeError('fetch failed', { cause: Object.assign(new Error(`connect ${code}`), { code }) });
const live = new AbortController().signal;

describe('classifyFetchFailure', () => {
  it.each([
    ['ENOTFOUND', 'dns'],
    ['EAI_AGAIN', 'dns'],
    ['ECONNREFUSED', 'connection-refused'],
    ['UND_ERR_CONNECT_TIMEOUT', 'connect-timeout'],
  ])('%s before any byte was written is certainly not sent (%s)', (code, reason) => {
    const error = classifyFetchFailure('p', withCode(code), live);
    expect(error).toBeInstanceOf(ProcessorNotReachedError);
    expect(error).toBeInstanceOf(OperationNotPerformedError);
    expect(error).toMatchObject({ reason });
  });

  it('finds the code inside an AggregateError (several addresses tried)', () => {
    const error = new TypeError('fetch failed', { cause: new AggregateError([Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })]) });
    expect(classifyFetchFailure('p', error, live)).toMatchObject({ reason: 'connection-refused' });
  });

  it.each(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE'])('%s may have been sent', (code) => {
    expect(classifyFetchFailure('p', withCode(code), live)).toMatchObject({ name: 'ProcessorMaybeSentError', reason: 'connection-reset' });
  });

  it('an abort of our deadline may have been sent', () => {
    const controller = new AbortController();
    controller.abort();
    expect(classifyFetchFailure('p', new DOMException('aborted', 'AbortError'), controller.signal)).toMatchObject({ reason: 'timeout' });
  });
});

describe('callJson against a processor that answers garbage', () => {
  let url: string;
  const server = createServer((req, res) => {
    if (req.url === '/html') res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance: 4895370000000010</html>');
    else res.writeHead(503, { 'content-type': 'text/html' }).end('<html>bad gateway</html>');
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const endpoint = () => ({ processor: 'p', baseUrl: url, timeoutMs: 1000, headers: {} });

  it('an answer that is not JSON is maybe sent, and the error quotes none of it', async () => {
    const error = await callJson(endpoint(), { method: 'POST', path: '/html', body: {} }, live).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProcessorMaybeSentError);
    expect(error).toMatchObject({ reason: 'unparseable-answer', status: 200 });
    expect(JSON.stringify({ ...(error as object), message: (error as Error).message, cause: String((error as Error).cause) })).not.toContain(
      '4895370000000010',
    );
  });

  it('hands a 5xx page to the processor client as a status without a body', async () => {
    expect(await callJson(endpoint(), { method: 'POST', path: '/5xx', body: {} }, live)).toMatchObject({ status: 503, body: undefined });
  });
});
