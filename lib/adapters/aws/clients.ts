import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import { serviceConfig } from '../../composition/config/service-config.js';
import { withCallSignal } from '../../core/deadline.js';

/**
 * One client per cold start, shared by every invocation. Endpoints come from configuration
 * (set only when running against dynalite and the local KMS server); the code path is the
 * production one either way.
 *
 * Deadlines (SPEC §6): connect 1 s and request 2 s per attempt; each call as a whole
 * (retries included) at most CALL_BUDGET_MS, and never past the invocation's deadline
 * (lib/core/deadline.ts). A frozen DynamoDB or KMS therefore costs one call's budget and
 * becomes a 503, never a hang until Lambda kills the function.
 */
export const DEPENDENCY_TIMEOUTS = { connectionTimeout: 1_000, requestTimeout: 2_000, callBudgetMs: 3_000 } as const;

/** Region, retries and the connect/request timeouts of every AWS client (others build theirs from it). */
export const AWS_CLIENT_DEFAULTS = {
  region: serviceConfig.AWS_REGION,
  maxAttempts: 3,
  requestHandler: {
    connectionTimeout: DEPENDENCY_TIMEOUTS.connectionTimeout,
    requestTimeout: DEPENDENCY_TIMEOUTS.requestTimeout,
    throwOnRequestTimeout: true,
  },
} as const;

export const dynamoClient = withDeadlines(
  new DynamoDBClient({
    ...AWS_CLIENT_DEFAULTS,
    ...(serviceConfig.DYNAMODB_ENDPOINT ? { endpoint: serviceConfig.DYNAMODB_ENDPOINT } : {}),
  }),
);

export const documentClient = withDeadlines(
  DynamoDBDocumentClient.from(dynamoClient, {
    marshallOptions: { removeUndefinedValues: true },
  }),
);

export const kmsClient = withDeadlines(
  new KMSClient({
    ...AWS_CLIENT_DEFAULTS,
    ...(serviceConfig.KMS_ENDPOINT ? { endpoint: serviceConfig.KMS_ENDPOINT } : {}),
  }),
);

type Sender = { send: (command: any, options?: any) => Promise<any> };

/**
 * Every `send` gets an abort signal: the call's budget combined with the invocation's
 * deadline. A caller's own signal, if it passes one, wins.
 */
export function withDeadlines<C extends Sender>(client: C, budgetMs: number = DEPENDENCY_TIMEOUTS.callBudgetMs): C {
  const send = client.send.bind(client);
  client.send = ((command: unknown, options?: Record<string, unknown>) =>
    withCallSignal(budgetMs, (signal) => send(command, { abortSignal: signal, ...options }))) as C['send'];
  return client;
}
