import { describe, expect, it } from 'vitest';
import { dynamoDbLocalSpec } from '../../infra/local/local-processes.js';

/** DynamoDB Local extracts its SQLite native library into the JVM's temporary directory at every start, and never removes it. */
describe('DynamoDB Local', () => {
  it('runs with a temporary directory of the stack’s own, never the system’s', () => {
    const args = dynamoDbLocalSpec(undefined, '/data/dynamodb-local-tmp').args(8000);
    expect(args).toContain('-Djava.io.tmpdir=/data/dynamodb-local-tmp');
    expect(args.indexOf('-Djava.io.tmpdir=/data/dynamodb-local-tmp')).toBeLessThan(args.indexOf('-jar')); // a JVM option, not the jar's
  });
});
