import type { Context, DynamoDBStreamEvent } from 'aws-lambda';
import { dueFromStream, webhookDispatchDeps } from '../../lib/composition/webhook-delivery.js';
import { withInvocationDeadline } from '../../lib/http/invocation-deadline.js';
import { logger as rootLogger } from '../../lib/core/ports/logger.js';
import { metrics } from '../../lib/core/ports/metrics.js';
import { runDelivery } from '../../lib/core/outbox/worker.js';

/**
 * SPEC §4.15 delivery, one function with two triggers (serverless.yml): the orders table's
 * stream delivers a new event within a second of the write that made it; a schedule sweeps
 * the `due` index for retries and anything the stream did not finish. Locally, the local
 * stack invokes this same handler every second through serverless-offline (the schedule).
 */
export const handler = withInvocationDeadline(async (event: DynamoDBStreamEvent | Record<string, unknown>, context: Context) => {
  const logger = rootLogger.child({ function: 'webhookDelivery', requestId: context.awsRequestId });
  const records = (event as DynamoDBStreamEvent).Records;
  const keys = Array.isArray(records) ? dueFromStream(records, webhookDispatchDeps.now()) : undefined;
  let processed: number;
  try {
    processed = await runDelivery(webhookDispatchDeps, logger, keys, context.getRemainingTimeInMillis());
  } finally {
    metrics.flush(); // once per invocation, like the API functions
  }
  // Stream failures are never reported back: the sweep retries them, and a poison record must
  // not hold up the shard behind it.
  return keys ? { batchItemFailures: [] } : { processed };
});
