/** Runs the local stack (in-memory dynalite + KMS server) in its own process for the benchmark. */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalStack } from '../infra/local/stack.js';

const dataDir = await mkdtemp(join(tmpdir(), 'ctp-bench-'));
const stack = await startLocalStack({ dataDir, persist: false, tablePrefix: 'bench' });
process.stdout.write(JSON.stringify({ env: stack.env, dataDir }) + '\n');
process.on('SIGTERM', () => void stack.close().then(() => process.exit(0)));
