/**
 * Runs the fake 3DS Server + DS + ACS on its own, for a production-shaped local demo:
 *
 *   npx tsx test/fakes/three-ds-server/cli.ts [--api-port 4410] [--acs-port 4411]
 *
 * Prints the API base URL and key (for the 3dsecure.io adapter's configuration) and the ACS
 * origin (for the hosted page's CSP frame-src / form-action). `npm start` can call
 * startFakeThreeDsServer() the same way. Ctrl-C stops it.
 */
import { parseArgs } from 'node:util';
import { startFakeThreeDsServer } from './index.js';

const { values } = parseArgs({ options: { 'api-port': { type: 'string', default: '4410' }, 'acs-port': { type: 'string', default: '4411' } } });
const fake = await startFakeThreeDsServer({ apiPort: Number(values['api-port']), acsPort: Number(values['acs-port']), host: '127.0.0.1' });
process.stdout.write(
  `fake 3DS Server API  ${fake.apiUrl}  (APIKey: ${fake.apiKey})\nfake ACS origin      ${fake.acsUrl}\ncards: test/fakes/three-ds-server/decisions.ts\n`,
);
const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
