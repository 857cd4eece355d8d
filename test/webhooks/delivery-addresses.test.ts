/**
 * SPEC §4.15: a webhook is never sent to a private, link-local or metadata address. The URL was
 * checked when it was configured; what its name resolves to at delivery is checked again (DNS
 * rebinding), and nothing the endpoint answers (a redirect, an endless body) takes the worker
 * anywhere else or holds it past its timeout.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { authorizedWorld } from '../support/lifecycle.js';
import { platformToken } from '../support/tokens.js';
import { webhookDeliveryHarness } from '../support/webhook-delivery.js';

let token: string;
beforeAll(async () => {
  token = await platformToken();
});
const { closers, slowReceiver, worker, sweepAll, storedEvents } = webhookDeliveryHarness(() => token);
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

describe('at delivery time the endpoint is reached only at a public address checked then (SSRF)', () => {
  it('a name that resolves to metadata, private or mapped addresses at delivery is never connected to (DNS rebinding)', async () => {
    const receiver = await slowReceiver(0);
    const port = new URL(receiver.url).port;
    for (const address of ['169.254.169.254', '10.1.2.3', '::ffff:169.254.169.254', '64:ff9b::a9fe:a9fe', 'fd00:ec2::254', '127.0.0.1']) {
      const w = await authorizedWorld({ amount: 1000 });
      const family = address.includes(':') ? 6 : 4;
      // Passed the PUT check (public), resolves elsewhere now; 127.0.0.1 is where the receiver listens.
      const deps = worker(w.merchantRef, `https://hooks.merchant.example:${port}/hook`, { allowLoopback: false, lookup: async () => [{ address, family }] });
      await sweepAll(deps);
      const [stored] = await storedEvents(w.merchantRef);
      expect(stored!.attempts, address).toMatchObject([{ error: 'blocked-address' }]);
    }
    expect(receiver.received).toHaveLength(0);
  });

  it('a name with one public and one private address is refused as a whole', async () => {
    const w = await authorizedWorld({ amount: 1000 });
    const deps = worker(w.merchantRef, 'https://hooks.merchant.example/hook', {
      allowLoopback: false,
      lookup: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '192.168.0.10', family: 4 },
      ],
    });
    await sweepAll(deps);
    expect((await storedEvents(w.merchantRef))[0]!.attempts).toMatchObject([{ error: 'blocked-address' }]);
  });

  it('a redirect is a failed attempt and its target is never requested; an endless answer ends within the timeout', async () => {
    const target = await slowReceiver(0);
    const redirecting = createServer((_request, response) => response.writeHead(307, { location: target.url }).end());
    const endless = createServer((_request, response) => {
      response.writeHead(200);
      const timer = setInterval(() => response.write('x'.repeat(1024)), 1);
      response.on('close', () => clearInterval(timer));
    });
    for (const server of [redirecting, endless]) {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      closers.push(
        () =>
          new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
          }),
      );
    }
    const url = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const w1 = await authorizedWorld();
    await sweepAll(worker(w1.merchantRef, url(redirecting)));
    expect((await storedEvents(w1.merchantRef))[0]).toMatchObject({ status: 'PENDING', attempts: [{ status: 307 }] });
    expect(target.received).toHaveLength(0);
    const w2 = await authorizedWorld();
    const started = Date.now();
    await sweepAll(worker(w2.merchantRef, url(endless)));
    expect(Date.now() - started).toBeLessThan(2_500);
    expect((await storedEvents(w2.merchantRef))[0]).toMatchObject({ status: 'DELIVERED', attempts: [{ status: 200 }] });
  });
});
