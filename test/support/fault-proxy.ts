import { createServer, request as forward, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request through the proxy: the AWS JSON-protocol operation (X-Amz-Target) and body. */
export interface ProxiedRequest {
  target: string;
  body: string;
}
export type Matcher = (request: ProxiedRequest) => boolean;
type DropMode = 'request' | 'response';

/**
 * A small fault proxy for the AWS JSON protocols (DynamoDB, KMS) on loopback, put between
 * the service's SDK clients and dynalite / the KMS server:
 * - freeze(): requests are accepted and held, unanswered, like a SIGSTOPped process; from a
 *   matching request on when a matcher is given. thaw() delivers the held ones to the target
 *   (as a resumed process would process what sat in its socket), answering whoever still listens.
 * - delay(ms): every answer comes late.
 * - drop(match, mode, times): 'request' — the request never reaches the target and the
 *   connection is reset (a write that never lands); 'response' — it reaches the target and
 *   the answer is lost (a write that lands without the caller knowing).
 * - hold(match): the next matching request alone is held (everything else passes) until
 *   release() — one call stalled, to order a race step by step; `arrived` says it is held.
 * - reset(): every open connection is destroyed.
 * Test-only code: it lives in test/support.
 */
export class FaultProxy {
  readonly seen: ProxiedRequest[] = [];
  private frozen: { from?: Matcher; active: boolean } = { active: false };
  private held: (() => void)[] = [];
  private delayMs = 0;
  private drops: { match: Matcher; mode: DropMode; left: number }[] = [];
  private holds: { match: Matcher; taken: boolean; arrived: () => void; released: Promise<void>; release: () => void }[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly target: URL;

  private constructor(
    private readonly server: Server,
    target: string,
  ) {
    this.target = new URL(target);
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    server.on('request', (req, res) => void this.handle(req, res));
  }

  static async start(target: string): Promise<FaultProxy> {
    const proxy = new FaultProxy(createServer({ keepAliveTimeout: 60_000 }), target);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', () => resolve()));
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  freeze(from?: Matcher): void {
    this.frozen = from ? { from, active: false } : { active: true };
  }

  thaw(): void {
    this.frozen = { active: false };
    const held = this.held;
    this.held = [];
    for (const release of held) release();
  }

  delay(ms: number): void {
    this.delayMs = ms;
  }

  drop(match: Matcher, mode: DropMode, times = 1): void {
    this.drops.push({ match, mode, left: times });
  }

  /**
   * Holds the next request matching `match` until `release()`. Keep it shorter than the SDK's
   * request timeout unless the test wants the SDK to give up on it.
   */
  hold(match: Matcher): { arrived: Promise<void>; release: () => void } {
    let arrived!: () => void;
    let release!: () => void;
    const arrival = new Promise<void>((resolve) => (arrived = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.holds.push({ match, taken: false, arrived, released, release });
    return { arrived: arrival, release };
  }

  /** Back to a transparent proxy (held requests are delivered). */
  heal(): void {
    this.drops = [];
    for (const hold of this.holds) hold.release();
    this.holds = [];
    this.delayMs = 0;
    this.thaw();
  }

  reset(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  count(match: Matcher): number {
    return this.seen.filter(match).length;
  }

  async close(): Promise<void> {
    this.heal();
    this.reset();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const seen: ProxiedRequest = { target: String(req.headers['x-amz-target'] ?? ''), body: body.toString('utf8') };
    this.seen.push(seen);
    if (this.frozen.from?.(seen)) this.frozen.active = true;
    const drop = this.takeDrop(seen);
    if (drop === 'request') {
      req.socket.destroy();
      return;
    }
    const send = () => this.forward(req, body, res, drop === 'response');
    const hold = this.holds.find((candidate) => !candidate.taken && candidate.match(seen));
    if (hold) {
      hold.taken = true;
      hold.arrived();
      await hold.released;
    }
    if (this.frozen.active) this.held.push(send);
    else send();
  }

  private takeDrop(seen: ProxiedRequest): DropMode | undefined {
    const rule = this.drops.find((candidate) => candidate.left > 0 && candidate.match(seen));
    if (!rule) return undefined;
    rule.left -= 1;
    return rule.mode;
  }

  private forward(req: IncomingMessage, body: Buffer, res: ServerResponse, loseAnswer: boolean): void {
    const upstream = forward({ host: this.target.hostname, port: this.target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        if (loseAnswer) return void res.socket?.destroy();
        setTimeout(() => {
          if (res.destroyed || res.socket?.destroyed) return;
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(Buffer.concat(chunks));
        }, this.delayMs);
      });
    });
    upstream.on('error', () => res.socket?.destroy());
    upstream.end(body);
  }
}

/** Matchers for the operations the tests aim at. */
export const dynamoOperation =
  (name: string): Matcher =>
  (r) =>
    r.target === `DynamoDB_20120810.${name}`;
export const kmsOperation =
  (name: string): Matcher =>
  (r) =>
    r.target === `TrentService.${name}`;
export const finalPaymentWrite: Matcher = (r) => dynamoOperation('UpdateItem')(r) && r.body.includes('settledBy');
export const leaseWrite: Matcher = (r) => dynamoOperation('UpdateItem')(r) && r.body.includes('leaseCredential = :leaseCredential');
