import { useEffect, useState } from 'preact/hooks';
import type { BootstrapResult } from './bootstrap.js';
import { CheckoutLayout } from './components/checkout-layout.js';
import type { ResultDetails } from './components/receipt.js';
import { ShopReturn } from './components/shop-return.js';
import { createCheckoutFlow } from './flow/checkout-flow.js';
import { endsVisit } from './flow/reducer.js';
import { returnTarget } from './flow/return-url.js';
import type { FlowState } from './flow/state.js';
import { formatAmount, toBcp47 } from './format.js';
import { StepView } from './step-view.js';

/**
 * The hosted checkout page. All of its state lives in the flow's store (flow/reducer.ts);
 * this component renders it, starts the flow and watches the session's expiry.
 */
export function App({ boot }: { boot: BootstrapResult }) {
  const [flow] = useState(() => createCheckoutFlow(boot));
  const [state, setState] = useState<FlowState>(() => flow.store.getState());

  useEffect(() => {
    const unsubscribe = flow.store.subscribe(() => setState(flow.store.getState()));
    setState(flow.store.getState());
    void flow.load();
    return unsubscribe;
  }, []);

  const { loaded } = state;
  const amountText = loaded ? formatAmount(loaded.order.amount, toBcp47(loaded.config.locale)) : '';
  const merchantName = loaded?.config.dpaName ?? '';
  const context = loaded?.context;
  const shopName = context?.shopName ?? (merchantName || 'the shop');
  const backHref = context && returnTarget(context, 'back', context.orderRef);
  const cancelHref = context && returnTarget(context, 'cancel', context.orderRef);
  const details: ResultDetails = {
    merchantName,
    amountText,
    orderReference: loaded?.order.merchantOrderReference ?? loaded?.order.orderRef,
    orderReferenceIsId: !loaded?.order.merchantOrderReference,
    ...(backHref ? { shop: { name: shopName, autoReturn: state.autoReturn } } : {}),
  };

  useEffect(() => {
    document.title = loaded ? `Pay ${amountText} · ${merchantName}` : 'Secure checkout';
  }, [loaded]);

  // The session token stops working at expiresAt: say so instead of failing later.
  useEffect(() => {
    const expiresAt = loaded ? Date.parse(loaded.context.expiresAt) : NaN;
    if (!Number.isFinite(expiresAt)) return;
    const timer = setTimeout(flow.sessionTimedOut, Math.min(Math.max(expiresAt - Date.now(), 0), 2_147_000_000));
    return () => clearTimeout(timer);
  }, [loaded?.context.expiresAt]);

  return (
    <CheckoutLayout
      state={state}
      merchantName={merchantName}
      amountText={amountText}
      panelEnd={
        backHref ? (
          <ShopReturn
            shopName={shopName}
            backHref={backHref}
            {...(cancelHref && state.view.kind !== 'paid' ? { cancelHref } : {})}
            prominent={endsVisit(state.view)}
            onLeave={() => flow.store.dispatch({ type: 'leaving' })}
          />
        ) : null
      }
    >
      <StepView state={state} flow={flow} details={details} />
    </CheckoutLayout>
  );
}
