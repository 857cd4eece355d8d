import { createPrivateKey } from 'node:crypto';
import { GetParameterCommand, type SSMClient } from '@aws-sdk/client-ssm';
import * as z from 'zod';
import type { OAuthCredentials } from './oauth1.js';

/**
 * The Mastercard API credentials, never in code or environment: an SSM SecureString parameter
 * (named by ARN in MASTERCARD_API_CREDENTIALS_PARAMETER_ARN) holding
 * `{"consumerKey":"…","signingKeyPem":"-----BEGIN PRIVATE KEY-----…"}` — the signing key is
 * the .p12's private key exported as PKCS#8 PEM
 * (docs/integrating/network-confirmations.md, "Production configuration"). Read once per warm function; a
 * failed read is not cached, so the next attempt reads again.
 */
const parameterValue = z.object({ consumerKey: z.string().min(1), signingKeyPem: z.string().min(1) });

export function ssmCredentials(ssm: Pick<SSMClient, 'send'>, parameterArn: string): () => Promise<OAuthCredentials> {
  let loaded: Promise<OAuthCredentials> | undefined;
  return () => {
    loaded ??= read(ssm, parameterArn).catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
}

async function read(ssm: Pick<SSMClient, 'send'>, parameterArn: string): Promise<OAuthCredentials> {
  // No signal of our own: the client's (withDeadlines) bounds the call by its budget and the invocation's deadline.
  const { Parameter } = await ssm.send(new GetParameterCommand({ Name: parameterArn, WithDecryption: true }));
  let json: unknown;
  try {
    json = JSON.parse(Parameter?.Value ?? '');
  } catch {
    throw new Error('the Mastercard credentials parameter is not JSON'); // never the value itself
  }
  const parsed = parameterValue.safeParse(json);
  if (!parsed.success) throw new Error('the Mastercard credentials parameter lacks consumerKey or signingKeyPem');
  return { consumerKey: parsed.data.consumerKey, signingKey: createPrivateKey(parsed.data.signingKeyPem) };
}
