// A fake for AWS Secrets Manager (GetSecretValue) and SSM Parameter Store (GetParameter,
// SecureString), both awsJson1_1 (X-Amz-Target: secretsmanager.<Op> / AmazonSSM.<Op>), so the
// production code path (@aws-sdk/client-secrets-manager, @aws-sdk/client-ssm with `endpoint`
// pointed here: SECRETS_MANAGER_ENDPOINT, SSM_ENDPOINT) runs unchanged in a local demo and in
// tests. Secrets live in memory, keyed by ARN; `put` adds one. SigV4 is not verified.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalSecretsServer {
  url: string;
  /** Adds or replaces the secret an ARN names (a secretsmanager or ssm ARN). */
  put(arn: string, value: string): void;
  /** Answers every call with 503 (a throttled or unreachable service) while true. */
  setFailing(failing: boolean): void;
  /** How many reads arrived (the cache test counts them). */
  reads(): number;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 64 * 1024;

export async function startLocalSecretsServer(options: { port?: number; host?: string } = {}): Promise<LocalSecretsServer> {
  const secrets = new Map<string, string>();
  let failing = false;
  let reads = 0;
  const server = createServer((req, res) => {
    void handle(req, res).catch(() => send(res, 500, { __type: 'InternalFailure', message: 'local secrets server failed' }));
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = String(req.headers['x-amz-target'] ?? '');
    const input = await readJson(req);
    if (failing) return send(res, 503, { __type: 'ServiceUnavailable', message: 'unavailable (local fault)' });
    if (target === 'secretsmanager.GetSecretValue') {
      reads++;
      const id = String(input?.SecretId ?? '');
      const value = secrets.get(id);
      if (value === undefined) return send(res, 400, { __type: 'ResourceNotFoundException', message: "Secrets Manager can't find the specified secret." });
      return send(res, 200, {
        ARN: id,
        Name: id.split(':secret:')[1] ?? id,
        SecretString: value,
        VersionId: 'local',
        VersionStages: ['AWSCURRENT'],
        CreatedDate: 0,
      });
    }
    if (target === 'AmazonSSM.GetParameter') {
      reads++;
      const name = String(input?.Name ?? '');
      const value = secrets.get(name);
      if (value === undefined) return send(res, 400, { __type: 'ParameterNotFound', message: '' });
      return send(res, 200, {
        Parameter: { Name: name.split(':parameter')[1] ?? name, ARN: name, Type: 'SecureString', Value: value, Version: 1, DataType: 'text' },
      });
    }
    return send(res, 400, { __type: 'UnknownOperationException', message: `unsupported operation ${target}` });
  }
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    put: (arn, value) => void secrets.set(arn, value),
    setFailing: (value) => {
      failing = value;
    },
    reads: () => reads,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.1' }).end(JSON.stringify(body));
}
