import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { startFakeThreeDsServer, type FakeThreeDsServer } from '../../test/fakes/three-ds-server/index.js';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from './stack.js';

/**
 * `LOCAL_THREE_DS_SERVER=fake npm start`: a production-shaped 3DS step-up locally. The fake 3DS
 * Server + DS + ACS (test/fakes/three-ds-server: 3dsecure.io's API, validated against the
 * published tables; decisions by the token's last four digits) on loopback ports of its own, its
 * API key an SSM parameter of the stack's secrets emulator (the local KMS server, SSM_ENDPOINT) —
 * the service reads it the production way (THREE_DS_SERVER_API_KEY_ARN), never from a plain variable.
 * The page's CSP admits the fake ACS's origin (THREE_DS_ACS_ORIGINS), added to any given.
 */
export const LOCAL_THREE_DS_API_KEY_ARN = `arn:aws:ssm:${LOCAL_REGION}:000000000000:parameter/click-to-pay/local/three-ds-api-key`;

export interface LocalFakeThreeDs {
  fake: FakeThreeDsServer;
  env: Record<string, string>;
  close(): Promise<void>;
}

export function localThreeDsServerMode(value: string | undefined): 'fake' | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (value.trim() === 'fake') return 'fake';
  throw new Error(`LOCAL_THREE_DS_SERVER must be "fake" or unset, not "${value}"`);
}

export async function startLocalFakeThreeDs(configuredAcsOrigins: string | undefined, ssmEndpoint: string): Promise<LocalFakeThreeDs> {
  const fake = await startFakeThreeDsServer({ host: '127.0.0.1' });
  const ssm = new SSMClient({ region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, endpoint: ssmEndpoint });
  await ssm
    .send(
      new PutParameterCommand({
        Name: LOCAL_THREE_DS_API_KEY_ARN.split(':parameter')[1],
        Value: JSON.stringify({ apiKey: fake.apiKey }),
        Type: 'SecureString',
        Overwrite: true,
      }),
    )
    .catch(async (error: unknown) => {
      await fake.close();
      throw error;
    });
  const acsOrigin = new URL(fake.acsUrl).origin;
  return {
    fake,
    env: {
      THREE_DS_SERVER_URL: fake.apiUrl,
      THREE_DS_SERVER_API_KEY_ARN: LOCAL_THREE_DS_API_KEY_ARN,
      THREE_DS_ACS_ORIGINS: [configuredAcsOrigins, acsOrigin].filter(Boolean).join(','),
    },
    close: () => fake.close(),
  };
}
