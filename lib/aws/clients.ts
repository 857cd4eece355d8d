import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import { serviceConfig } from '../config/service-config.js';

/**
 * One client per cold start, shared by every invocation. Endpoints come from configuration
 * (set only when running against dynalite and the local KMS server); the code path is the
 * production one either way. Retries are few and fast: a Lambda behind API Gateway has
 * ~29 s, and a throttled dependency is better reported as 503 than waited out.
 */
const common = { region: serviceConfig.AWS_REGION, maxAttempts: 3 } as const;

export const dynamoClient = new DynamoDBClient({
  ...common,
  ...(serviceConfig.DYNAMODB_ENDPOINT ? { endpoint: serviceConfig.DYNAMODB_ENDPOINT } : {}),
});

export const documentClient = DynamoDBDocumentClient.from(dynamoClient, {
  marshallOptions: { removeUndefinedValues: true },
});

export const kmsClient = new KMSClient({
  ...common,
  ...(serviceConfig.KMS_ENDPOINT ? { endpoint: serviceConfig.KMS_ENDPOINT } : {}),
});
