/**
 * dynalite as a process of its own (SPEC §7), so that a person or a test can freeze it
 * (kill -STOP), resume it (kill -CONT) or kill it, and watch the service degrade and recover.
 *
 *   tsx infra/local/dynalite-server.ts --port 4567 [--path .data/dynamodb]
 *
 * Prints one JSON line, {"dynamodb":"http://127.0.0.1:4567"}, once it listens.
 * Without --path the data lives in memory.
 */
import { parseArgs } from 'node:util';
import type { AddressInfo } from 'node:net';
import dynalite from 'dynalite';

const { values } = parseArgs({ options: { port: { type: 'string' }, host: { type: 'string' }, path: { type: 'string' } } });
const host = values.host ?? '127.0.0.1';
const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0, ...(values.path ? { path: values.path } : {}) });
await new Promise<void>((resolve, reject) => {
  server.once('error', reject);
  server.listen(Number(values.port ?? 0), host, () => resolve());
});
const { port } = server.address() as AddressInfo;
process.stdout.write(`${JSON.stringify({ dynamodb: `http://${host}:${port}` })}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  });
}
