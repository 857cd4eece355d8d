/**
 * What a payment function (4.3, 4.4, 4.10) reaches only for a production merchant, imported with
 * import() all at once, the first time one of them is needed (./payments.ts, ./three-ds-server.ts):
 * the processors' adapters, the secret source their credentials and the 3DS Server's API key are
 * read with, and the 3DS Server's adapter. Each would otherwise be a chunk of its own, and what
 * each shares with the handler — zod, the errors, the AWS SDK's core — a different set of chunks,
 * every one of them read at every cold start (with the Idempotency-Key guard's single import(),
 * ./idempotency-guard.ts: 7 files at init instead of 15; docs/benchmarks.md "Cold start"). A production payment reads its processor's adapter and
 * credentials, and most step up at the 3DS Server, so little of this chunk goes unused when it is
 * loaded; sandbox merchants never load it.
 */
export { adyenAuthorizer } from './processors/adyen.js';
export { checkoutComAuthorizer } from './processors/checkout-com.js';
export { secretSource } from './secrets.js';
export { ThreeDSecureIoServer } from '../adapters/three-ds/threedsecure-io/server.js';
