/**
 * A payment attempt in a process of its own, for the fault suite: it pays (4.3) through the
 * real handler, lets the sandbox acquirer approve, prints ACQUIRER_ANSWERED, and then never
 * returns, holding the payment's lease, until the test kills it (SIGKILL).
 * Input: LEASE_HOLDER_INPUT = JSON { world, token, sdkResult }.
 */
import { authorizer } from '../support/sandbox-acquirer.js';
import type { AuthorizationRequest } from '../../lib/core/ports/authorizer.js';
import { handler as payClickToPay } from '../../functions/pay-click-to-pay/handler.js';
import { invoke } from '../support/invoke.js';

const input = JSON.parse(process.env.LEASE_HOLDER_INPUT ?? '{}');
const approve = authorizer.authorize.bind(authorizer);
authorizer.authorize = async (request: AuthorizationRequest, signal: AbortSignal) => {
  await approve(request, signal);
  process.stdout.write('ACQUIRER_ANSWERED\n');
  return new Promise(() => undefined); // the process "dies" here: the final write never comes
};
const { outletId, orderRef, paymentRef } = input.world;
await invoke(payClickToPay, {
  method: 'POST',
  path: `/transactions/outlets/${outletId}/orders/${orderRef}/payments/${paymentRef}/click-to-pay`,
  pathParameters: { outletId, orderRef, paymentRef },
  token: input.token,
  body: { checkoutResponse: input.sdkResult },
  timeoutMs: 600_000,
});
