import { awsClientDefaults, createAwsClients } from '../adapters/aws/clients.js';
import { serviceConfig } from './config/service-config.js';

/** The cold start's AWS clients (lib/adapters/aws/clients.ts: deadlines on every call). */
export const { dynamoClient, documentClient, kmsClient } = createAwsClients({
  region: serviceConfig.AWS_REGION,
  dynamoEndpoint: serviceConfig.DYNAMODB_ENDPOINT,
  kmsEndpoint: serviceConfig.KMS_ENDPOINT,
});

/** What other AWS clients (SSM, Secrets Manager) are built from. */
export const AWS_CLIENT_DEFAULTS = awsClientDefaults(serviceConfig.AWS_REGION);
