import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** Which of the receiver's secrets verified the signature header (each one is tried alone). */
  verifiedWith: number[];
}

/**
 * A merchant's webhook endpoint on a local port, verifying every delivery with the Standard
 * Webhooks reference verifier, as a merchant's developer would. `answers` scripts the status
 * codes it replies with, in order (then 200); 'hang' never answers.
 */
export async function webhookReceiver(initialSecrets: string[], answers: (number | 'hang')[] = []) {
  let secrets = [...initialSecrets];
  const received: Received[] = [];
  const script = [...answers];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = request.headers;
      const verifiedWith = secrets.flatMap((secret, index) => {
        try {
          new Webhook(secret).verify(body, headers as Record<string, string>);
          return [index];
        } catch {
          return [];
        }
      });
      received.push({ headers, body, verifiedWith });
      const answer = script.shift() ?? 200;
      if (answer === 'hang') return;
      response.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    /** The secrets to verify with from now on (the first PUT shows the secret only after the URL exists). */
    useSecrets: (next: string[]) => {
      secrets = [...next];
    },
    received,
    events: () => received.map((r) => JSON.parse(r.body) as { id: string; type: string; createdAt: string; data: Record<string, unknown> }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
