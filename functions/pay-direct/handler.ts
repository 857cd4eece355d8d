import { authenticator, baseUrlOf } from '../../lib/composition/core.js';
import { paymentDeps } from '../../lib/composition/payments.js';
import { toPaymentResource } from '../../lib/http/resources/payment-resource.js';
import { idempotentApiHandler } from '../../lib/composition/idempotent-api-handler.js';
import { paymentParams } from '../../lib/http/params.js';
import { payerIp, payerIpQuery } from '../../lib/http/payment-request.js';
import { payWithDirectWallet } from '../../lib/core/payments/pay-direct-wallet.js';
import { directWalletBody } from './schema.js';
import { routes } from '../../lib/http/routes.js';

/** SPEC 4.4 — Direct Wallet: already-decrypted network token data. */
export const handler = idempotentApiHandler(
  routes.payDirect,
  {
    authenticator,
    params: paymentParams,
    query: payerIpQuery,
    body: directWalletBody,
  },
  async ({ params, query, body, principal, event, logger }) => {
    const payment = await payWithDirectWallet(paymentDeps, principal, params, body, {
      baseUrl: baseUrlOf(event),
      payerIp: payerIp(query, event),
      logger,
    });
    return { body: toPaymentResource(payment) };
  },
);
