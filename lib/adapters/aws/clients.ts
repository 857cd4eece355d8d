import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import { withCallSignal } from '../../core/deadline.js';

/**
 * The AWS clients of the service, built once per cold start by the composition
 * (lib/composition/aws.ts) and shared by every invocation. Endpoints come from configuration
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
export function awsClientDefaults(region: string) {
  return {
    region,
    maxAttempts: 3,
    requestHandler: {
      connectionTimeout: DEPENDENCY_TIMEOUTS.connectionTimeout,
      requestTimeout: DEPENDENCY_TIMEOUTS.requestTimeout,
      throwOnRequestTimeout: true,
    },
  } as const;
}

export interface AwsClientsConfig {
  region: string;
  /** Local stacks only: dynalite / DynamoDB Local, and the project's KMS-protocol server. */
  dynamoEndpoint?: string | undefined;
  kmsEndpoint?: string | undefined;
}

/** DynamoDB (plain and document) and KMS clients, each call bounded (withDeadlines). */
export function createAwsClients(config: AwsClientsConfig) {
  const defaults = awsClientDefaults(config.region);
  const dynamoClient = withDeadlines(new DynamoDBClient({ ...defaults, ...(config.dynamoEndpoint ? { endpoint: config.dynamoEndpoint } : {}) }));
  const documentClient = withDeadlines(DynamoDBDocumentClient.from(dynamoClient, { marshallOptions: { removeUndefinedValues: true } }));
  const kmsClient = withDeadlines(new KMSClient({ ...defaults, ...(config.kmsEndpoint ? { endpoint: config.kmsEndpoint } : {}) }));
  return { dynamoClient, documentClient, kmsClient };
}

// biome-ignore lint/suspicious/noExplicitAny: every AWS SDK v3 client's `send`, whatever its command types
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
