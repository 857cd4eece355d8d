import { KMSClient } from '@aws-sdk/client-kms';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DependencyUnavailableError } from '../../lib/core/errors.js';
import { KmsSecretSealer } from '../../lib/adapters/kms/webhook-secret-sealer.js';
import { failureReason } from '../../lib/adapters/metrics/dependency-failures.js';
import { EmfRecorder, emfRecorder } from '../../lib/adapters/metrics/emf-recorder.js';
import { brandDimension, declineCodeDimension, metrics, useMetricsRecorder } from '../../lib/core/ports/metrics.js';

/** The port's rules: closed dimension sets, never throwing, one EMF line per dimension set. */
afterEach(() => {
  vi.restoreAllMocks();
  useMetricsRecorder(emfRecorder);
});

describe('metrics port', () => {
  it('keeps dimension values to closed sets', () => {
    expect(declineCodeDimension('INSUFFICIENT_FUNDS')).toBe('INSUFFICIENT_FUNDS');
    expect(declineCodeDimension('ACQ-7781 card 4111111111111111')).toBe('OTHER');
    expect(brandDimension('VISA')).toBe('VISA');
    expect(brandDimension('JCB')).toBe('UNKNOWN');
    expect(brandDimension(undefined)).toBe('UNKNOWN');
  });

  it('names why a dependency failed: throttled, timeout, or unavailable', () => {
    const named = (name: string) => Object.assign(new Error('x'), { name });
    expect(failureReason(named('ThrottlingException'))).toBe('throttled');
    expect(failureReason(named('ProvisionedThroughputExceededException'))).toBe('throttled');
    expect(failureReason(named('TimeoutError'))).toBe('timeout');
    expect(failureReason(named('AbortError'))).toBe('timeout');
    expect(failureReason(Object.assign(new Error('x'), { code: 'ETIMEDOUT' }))).toBe('timeout');
    expect(failureReason(named('InternalServerError'))).toBe('unavailable');
    expect(failureReason(undefined)).toBe('unavailable');
  });

  it('a throttled webhook-secrets KMS call counts under the same kms/throttled the alarm watches', async () => {
    const kms = new KMSClient({ region: 'eu-west-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
    vi.spyOn(kms, 'send').mockRejectedValue(Object.assign(new Error('slow down'), { name: 'ThrottlingException' }) as never);
    const count = vi.spyOn(metrics, 'count');
    const error = await new KmsSecretSealer(kms, 'alias/x').open('AAAA', 'm-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DependencyUnavailableError);
    expect(count).toHaveBeenCalledWith('DependencyErrors', { dependency: 'kms', reason: 'throttled' });
  });

  it('never throws into a request, whatever the adapter does', () => {
    const broken = () => {
      throw new Error('adapter broke');
    };
    useMetricsRecorder({ count: broken, timing: broken, flush: broken });
    expect(() => {
      metrics.count('Authorizations', { outcome: 'approved' });
      metrics.timing('Latency', 12, { route: 'GET /x' });
      metrics.flush();
    }).not.toThrow();
  });

  it('the EMF adapter writes one line per dimension set, with the values summed by CloudWatch', () => {
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: unknown) => {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      return true;
    }) as typeof process.stdout.write);
    const recorder = new EmfRecorder();
    recorder.count('Authorizations', { environment: 'sandbox', brand: 'VISA', outcome: 'approved' });
    recorder.count('Authorizations', { outcome: 'approved', brand: 'VISA', environment: 'sandbox' }); // same set, other order
    recorder.timing('Latency', 12.6, { route: 'GET /x' });
    recorder.flush();
    const emf = lines.map((line) => JSON.parse(line));
    expect(emf).toHaveLength(2);
    expect(emf[0]).toMatchObject({ Authorizations: [1, 1], environment: 'sandbox', brand: 'VISA', outcome: 'approved' });
    expect(emf[1]).toMatchObject({ Latency: 13, route: 'GET /x' });
    expect(emf[1]).not.toHaveProperty('outcome'); // dimensions do not leak from one set to the next
    expect(emf[1]._aws.CloudWatchMetrics[0].Metrics).toEqual([{ Name: 'Latency', Unit: 'Milliseconds' }]);
    lines.length = 0;
    recorder.flush(); // nothing recorded since: nothing written, no warning line
    expect(lines).toEqual([]);
  });
});
