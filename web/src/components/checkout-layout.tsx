import type { ComponentChildren } from 'preact';
import { STEP_OF, type FlowState } from '../flow/state.js';
import { BrandMark, ClickToPayMark, LockIcon } from './icons.js';
import { SandboxHints } from './sandbox-hints.js';
import { AlertBox } from './ui.js';

const STEPS = ['Sign in', 'Choose card', 'Pay'];

/** The page around the current step: merchant bar, order summary, Click to Pay panel, footer. */
export function CheckoutLayout(props: {
  state: FlowState;
  merchantName: string;
  amountText: string;
  children: ComponentChildren;
  panelEnd?: ComponentChildren;
}) {
  const { state, merchantName, amountText, children } = props;
  const { view, loaded, alert, status } = state;
  const step = STEP_OF[view.kind];
  const brands = loaded?.config.cardBrands ?? [];
  return (
    <div class="page">
      <header class="topbar">
        <div class="topbar-inner">
          {merchantName ? (
            <div class="merchant">
              <span class="merchant-logo" aria-hidden="true">
                {merchantName.trim().charAt(0).toUpperCase()}
              </span>
              <span class="merchant-name">{merchantName}</span>
            </div>
          ) : (
            <span class="merchant-name">Checkout</span>
          )}
          <span class="secure-badge">
            <LockIcon /> Secure checkout
          </span>
        </div>
      </header>
      <main class="main" id="main">
        {loaded || view.kind === 'loading' ? (
          <section class="summary" aria-label="Order summary">
            <p class="summary-label">{merchantName ? `Pay ${merchantName}` : '\u00a0'}</p>
            <p class="summary-amount" data-testid="amount">
              {amountText || '\u00a0'}
            </p>
            {/* Merchant free text: a text node (Preact escapes it), never markup. */}
            {loaded?.context.description ? (
              <p class="summary-description" data-testid="description">
                {loaded.context.description}
              </p>
            ) : null}
            {loaded?.order.merchantOrderReference ? <p class="summary-meta">Order {loaded.order.merchantOrderReference}</p> : null}
          </section>
        ) : (
          <div class="summary-spacer" />
        )}
        <section class="panel" data-step={view.kind} aria-labelledby="panel-title">
          <div class="panel-head">
            <span class="ctp-brand" id="panel-title">
              <ClickToPayMark /> Click to Pay
            </span>
            <span class="accepted" role="img" aria-label={`Accepted cards: ${brands.join(', ')}`}>
              {brands.map((b) => (
                <BrandMark brand={b} size="sm" key={b} />
              ))}
            </span>
          </div>
          {step >= 0 && step < 3 ? (
            <ol class="stepper" aria-label="Progress">
              {STEPS.map((label, index) => (
                <li class={index < step ? 'is-done' : index === step ? 'is-current' : ''} aria-current={index === step ? 'step' : undefined} key={label}>
                  <span class="stepper-dot" aria-hidden="true">
                    {index + 1}
                  </span>
                  <span class="stepper-label">{label}</span>
                </li>
              ))}
            </ol>
          ) : null}
          {alert ? <AlertBox notice={alert} /> : null}
          {children}
          <p class="sr-only" role="status" aria-live="polite">
            {status}
          </p>
          {status && (view.kind === 'identity' || view.kind === 'cards') ? (
            <p class="status-note" aria-hidden="true">
              {status}
            </p>
          ) : null}
          {props.panelEnd}
        </section>
        {loaded?.config.environment === 'sandbox' ? <SandboxHints /> : null}
      </main>
      <footer class="footer">
        <LockIcon /> Card details are encrypted and never shared with {merchantName || 'the merchant'}.
      </footer>
    </div>
  );
}
