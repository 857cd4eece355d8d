import type { Payment } from '../api.js';
import type { FlowContext } from './context.js';
import { endsVisit } from './reducer.js';
import { AUTO_RETURN_MS, returnTarget, type Leave } from './return-url.js';

/** Going back to the shop (hosted payment page, SPEC 4.8). */

export function leave(ctx: FlowContext, kind: Leave): void {
  const loaded = ctx.store.getState().loaded;
  const target = loaded && returnTarget(loaded.context, kind, loaded.context.orderRef);
  if (!target) return;
  ctx.store.dispatch({ type: 'leaving' });
  ctx.navigate(target);
}

/**
 * Shows a payment's outcome. When it ends the visit and the shop gave a return URL, the
 * shopper goes back by themselves after AUTO_RETURN_MS (time to read the result). Not on a
 * reload: a shopper who came back to this page with the browser's Back button is not bounced.
 */
export function settle(ctx: FlowContext, payment: Payment): void {
  const { store } = ctx;
  store.dispatch({ type: 'paymentUpdated', payment });
  const state = store.getState();
  if (!endsVisit(state.view) || !returnTarget(state.loaded?.context, 'back', state.loaded?.context.orderRef ?? '')) return;
  store.dispatch({ type: 'autoReturnScheduled' });
  setTimeout(() => {
    // Only if the shopper has not left already (Back/Cancel) and the outcome is still on screen.
    const now = store.getState();
    if (now.autoReturn && !now.leaving && endsVisit(now.view)) leave(ctx, 'back');
  }, AUTO_RETURN_MS);
}
