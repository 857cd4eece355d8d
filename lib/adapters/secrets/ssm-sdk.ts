/**
 * The SSM SDK as the secret source imports it, on the first read from that store
 * (./secret-source.ts, lib/composition/secrets.ts); an ESM module of our own for the reason
 * ./secrets-manager-sdk.ts gives.
 */
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';

export { GetParameterCommand, SSMClient };
