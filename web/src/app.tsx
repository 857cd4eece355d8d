import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiClient, ApiError, currentPayment, type EncryptionKeys, type MerchantConfig, type Order, type Payment } from './api.js';
import { forget, type BootstrapResult, type SessionContext } from './bootstrap.js';
import { BrandMark, ClickToPayMark, LockIcon } from './components/icons.js';
import {
  AddCardStep,
  CardsStep,
  DeclinedStep,
  IdentityStep,
  NoticeStep,
  OtpStep,
  ProcessingStep,
  SuccessStep,
  ThreeDsStep,
  type IdentityDraft,
  type OtpFailure,
  type ResultDetails,
} from './components/steps.js';
import { AlertBox, Button } from './components/ui.js';
import { formatAmount, toBcp47, toMajor } from './format.js';
import { encryptCompactJwe } from './jwe.js';
import { declineMessage, otpMessage, paymentErrorNotice, resendMessage, TEXT, type Notice } from './messages.js';
import { createClickToPaySdk, isSdkError, type ClickToPaySdk, type ConsumerIdentity, type MaskedCard, type MaskedConsumer, type ValidationChannel } from './sdk/index.js';
import type { ValidCard } from './validation.js';

type View =
  | { kind: 'loading'; label: string }
  | { kind: 'expired'; notice: Notice }
  | { kind: 'fatal'; notice: Notice; retry?: 'load' | 'init' }
  | { kind: 'identity'; notFound?: boolean }
  | { kind: 'otp'; maskedChannel: string; channel: ValidationChannel }
  | { kind: 'cards-error' }
  | { kind: 'cards' }
  | { kind: 'add-card'; newConsumer: boolean }
  | { kind: 'processing'; label: string }
  | { kind: 'pay-error'; notice: Notice; cardId: string }
  | { kind: 'three-ds'; payment: Payment }
  | { kind: 'paid'; payment: Payment; already?: boolean }
  | { kind: 'declined'; payment: Payment };

interface Loaded {
  api: ApiClient;
  context: SessionContext;
  config: MerchantConfig;
  keys: EncryptionKeys;
  order: Order;
  paymentRef: string;
}

const STEP_OF: Record<View['kind'], number> = {
  loading: 0,
  expired: -1,
  fatal: -1,
  identity: 0,
  otp: 0,
  'cards-error': 1,
  cards: 1,
  'add-card': 1,
  processing: 2,
  'pay-error': 2,
  'three-ds': 2,
  paid: 3,
  declined: -1,
};
const FINAL: ReadonlySet<View['kind']> = new Set(['paid', 'declined', 'expired']);
const MAX_OTP_FAILURES = 5;

export function App({ boot }: { boot: BootstrapResult }) {
  const [view, setViewState] = useState<View>({ kind: 'loading', label: 'Loading your payment…' });
  const [alert, setAlert] = useState<Notice>();
  const [status, setStatus] = useState('');
  const [loaded, setLoaded] = useState<Loaded>();
  const [draft, setDraft] = useState<IdentityDraft>({ mode: 'email', email: '', mobile: '' });
  const [cards, setCards] = useState<MaskedCard[]>([]);
  const [consumer, setConsumer] = useState<MaskedConsumer>({});
  /** What the customer typed, for a customer without a Click to Pay profile (their own input). */
  const [typedIdentity, setTypedIdentity] = useState<string>();
  const [selected, setSelected] = useState<string>();
  const data = useRef<Loaded | undefined>(undefined);
  const sdk = useRef<ClickToPaySdk | undefined>(undefined);
  const viewRef = useRef<View>(view);
  const otpFailures = useRef(0);

  const go = (next: View, notice?: Notice) => {
    viewRef.current = next;
    // An expired session is over for good; after a result a reload still shows the order's outcome.
    if (next.kind === 'expired') forget();
    setAlert(notice);
    setViewState(next);
  };

  const locale = toBcp47(loaded?.config.locale);
  const amountText = loaded ? formatAmount(loaded.order.amount, locale) : '';
  const merchantName = loaded?.config.dpaName ?? '';
  const details: ResultDetails = {
    merchantName,
    amountText,
    orderReference: loaded?.order.merchantOrderReference ?? loaded?.order.orderRef,
    orderReferenceIsId: !loaded?.order.merchantOrderReference,
  };

  useEffect(() => {
    document.title = loaded ? `Pay ${amountText} · ${merchantName}` : 'Secure checkout';
  }, [loaded]);

  // ------------------------------------------------------------------------------ loading
  const expire = (notice: Notice = TEXT.sessionExpired) => go({ kind: 'expired', notice });

  const load = async () => {
    if (!boot.ok) return expire(boot.error === 'SESSION_EXPIRED' ? TEXT.sessionExpired : TEXT.sessionInvalid);
    go({ kind: 'loading', label: 'Loading your payment…' });
    const api = new ApiClient(boot.token);
    const { context } = boot;
    let config: MerchantConfig;
    let keys: EncryptionKeys;
    let order: Order;
    try {
      [config, keys, order] = await Promise.all([
        api.merchantConfig(context.merchantRef),
        api.encryptionKeys(),
        api.order(context.outletId, context.orderRef),
      ]);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return expire();
      if (error instanceof ApiError && error.status === 404) return expire(TEXT.sessionInvalid);
      if (error instanceof ApiError && error.code === 'CLICK_TO_PAY_NOT_ENABLED') return go({ kind: 'fatal', notice: TEXT.notEnabled });
      return go({ kind: 'fatal', notice: TEXT.loadFailed, retry: 'load' });
    }
    const payment = currentPayment(order);
    if (!payment) return go({ kind: 'fatal', notice: TEXT.loadFailed, retry: 'load' });
    const ready: Loaded = { api, context, config, keys, order, paymentRef: payment.paymentRef };
    data.current = ready;
    setLoaded(ready);
    if (payment.state !== 'STARTED') return showPayment(payment, true);
    if (!config.clickToPayEnabled) return go({ kind: 'fatal', notice: TEXT.notEnabled });
    await initSdk();
  };

  const initSdk = async (then?: { status?: string; alert?: Notice }) => {
    const ready = data.current;
    if (!ready) return;
    go({ kind: 'loading', label: 'Connecting to Click to Pay…' });
    let instance: ClickToPaySdk;
    try {
      instance = await createClickToPaySdk(ready.config.environment, ready.config.cardBrands, ready.context.sdkUrls);
      await instance.init({
        dpaId: ready.config.dpaId,
        dpaClientId: ready.config.dpaClientId,
        dpaName: ready.config.dpaName,
        cardBrands: ready.config.cardBrands,
        locale: ready.config.locale,
        amount: { value: toMajor(ready.order.amount), currencyCode: ready.order.amount.currencyCode },
      });
    } catch {
      sdk.current = undefined;
      return go({ kind: 'fatal', notice: TEXT.sdkInit, retry: 'init' });
    }
    sdk.current = instance;
    otpFailures.current = 0;
    setCards([]);
    setConsumer({});
    setTypedIdentity(undefined);
    setSelected(undefined);
    setStatus(then?.status ?? '');
    go({ kind: 'identity' }, then?.alert);
  };

  useEffect(() => {
    void load();
  }, []);

  // The session token stops working at expiresAt: say so instead of failing later.
  useEffect(() => {
    const expiresAt = loaded ? Date.parse(loaded.context.expiresAt) : NaN;
    if (!Number.isFinite(expiresAt)) return;
    const timer = setTimeout(() => {
      const kind = viewRef.current.kind;
      if (!FINAL.has(kind) && kind !== 'processing' && kind !== 'three-ds') expire();
    }, Math.min(Math.max(expiresAt - Date.now(), 0), 2_147_000_000));
    return () => clearTimeout(timer);
  }, [loaded]);

  // ----------------------------------------------------------------------------- identity
  const lookup = async (identity: ConsumerIdentity): Promise<string | undefined> => {
    const instance = sdk.current;
    if (!instance) return void initSdk();
    setAlert(undefined);
    setStatus('');
    try {
      const result = await instance.identityLookup(identity);
      setTypedIdentity(result.consumerPresent ? undefined : identity.value);
      if (!result.consumerPresent) {
        go({ kind: 'identity', notFound: true });
        return undefined;
      }
      otpFailures.current = 0;
      if (result.validation) return void go({ kind: 'otp', maskedChannel: result.validation.maskedChannel, channel: result.validation.channel });
      return void (await loadCards());
    } catch (error) {
      if (isSdkError(error) && error.reason === 'NOT_AUTHENTICATED') return void (await initSdk({ alert: TEXT.authFailed }));
      if (isSdkError(error) && error.reason === 'INVALID_IDENTITY') {
        return identity.type === 'EMAIL' ? 'Click to Pay can’t use this email address. Check it and try again.' : 'Click to Pay can’t use this mobile number. Check it and try again.';
      }
      go({ kind: 'identity' }, isSdkError(error) && error.reason === 'ACCOUNT_LOCKED' ? TEXT.accountLocked : TEXT.authFailed);
      return undefined;
    }
  };

  const switchIdentity = async (message = 'You’re signed out of Click to Pay. Enter another email address or mobile number.') => {
    const instance = sdk.current;
    go({ kind: 'loading', label: 'Signing out…' });
    await instance?.signOut().catch(() => undefined);
    setDraft({ mode: 'email', email: '', mobile: '' });
    await initSdk({ status: message });
  };

  // ---------------------------------------------------------------------------------- OTP
  const validateOtp = async (code: string): Promise<OtpFailure | undefined> => {
    const instance = sdk.current;
    if (!instance) return { message: TEXT.sdkInit.body, locked: true, expired: false };
    try {
      const result = await instance.validateOtp(code);
      setConsumer(result.consumer);
      await loadCards();
      return undefined;
    } catch (error) {
      const failure = otpMessage(error);
      otpFailures.current += 1;
      if (otpFailures.current >= MAX_OTP_FAILURES) failure.locked = true;
      return failure;
    }
  };

  const resendOtp = async () => {
    const instance = sdk.current;
    if (!instance) return { ok: false as const, message: resendMessage(undefined) };
    try {
      const result = await instance.resendOtp();
      return { ok: true as const, ...result };
    } catch (error) {
      return { ok: false as const, message: resendMessage(error) };
    }
  };

  // -------------------------------------------------------------------------------- cards
  const loadCards = async (): Promise<void> => {
    const instance = sdk.current;
    if (!instance) return;
    go({ kind: 'loading', label: 'Loading your cards…' });
    try {
      const list = await instance.getCards();
      setCards(list);
      setSelected(list[0]?.srcDigitalCardId);
      go({ kind: 'cards' });
    } catch (error) {
      if (isSdkError(error) && error.reason === 'NOT_AUTHENTICATED') return initSdk({ alert: TEXT.sessionLost });
      go({ kind: 'cards-error' });
    }
  };

  const enroll = async (card: ValidCard, newConsumer: boolean): Promise<void> => {
    const instance = sdk.current;
    const ready = data.current;
    if (!instance || !ready) return;
    setAlert(undefined);
    const key = ready.keys.keys.find((k) => k.kid === ready.keys.encryptionKeyId) ?? ready.keys.keys.find((k) => k.status === 'current');
    if (!key) return go({ kind: 'add-card', newConsumer }, TEXT.enrollFailed);
    try {
      const encryptedCard = await encryptCompactJwe(
        JSON.stringify({
          primaryAccountNumber: card.pan,
          panExpirationMonth: card.month,
          panExpirationYear: card.year,
          cardSecurityCode: card.cvc,
          cardholderFullName: card.name,
        }),
        key,
        key.kid,
      );
      const masked = await instance.enrollCard({
        encryptedCard,
        brand: card.brand,
        panBin: card.pan.slice(0, 6),
        panLastFour: card.pan.slice(-4),
        panExpirationMonth: card.month,
        panExpirationYear: card.year,
        cardholderName: card.name,
      });
      setCards((list) => [...list.filter((c) => c.srcDigitalCardId !== masked.srcDigitalCardId), masked]);
      setSelected(masked.srcDigitalCardId);
      setStatus(`Card added: ${masked.brand === 'MASTERCARD' ? 'Mastercard' : 'Visa'} ending in ${masked.panLastFour}.`);
      go({ kind: 'cards' });
    } catch (error) {
      if (isSdkError(error) && error.reason === 'NOT_AUTHENTICATED') return initSdk({ alert: TEXT.sessionLost });
      go({ kind: 'add-card', newConsumer }, TEXT.enrollFailed);
    }
  };

  // ------------------------------------------------------------------------------ payment
  const pay = async (cardId: string) => {
    const instance = sdk.current;
    const ready = data.current;
    if (!instance || !ready) return;
    setStatus('');
    go({ kind: 'processing', label: 'Confirming with Click to Pay…' });
    let checkoutResponse: Record<string, unknown>;
    try {
      checkoutResponse = await instance.checkout({
        srcDigitalCardId: cardId,
        amount: { value: toMajor(ready.order.amount), currencyCode: ready.order.amount.currencyCode },
      });
    } catch (error) {
      if (isSdkError(error) && error.reason === 'NOT_AUTHENTICATED') return initSdk({ alert: TEXT.sessionLost });
      if (isSdkError(error) && error.reason === 'CHECKOUT_ABANDONED') return go({ kind: 'cards' }, TEXT.checkoutAbandoned);
      return go({ kind: 'cards' }, TEXT.checkoutFailed);
    }
    go({ kind: 'processing', label: 'Authorising your payment…' });
    try {
      const payment = await ready.api.payWithClickToPay(ready.context.outletId, ready.context.orderRef, ready.paymentRef, checkoutResponse);
      showPayment(payment);
    } catch (error) {
      await handlePaymentError(error, cardId);
    }
  };

  const completeThreeDs = async (cres: string) => {
    const ready = data.current;
    if (!ready) return;
    go({ kind: 'processing', label: 'Completing verification…' });
    try {
      showPayment(await ready.api.completeThreeDs(ready.context.outletId, ready.context.orderRef, ready.paymentRef, cres));
    } catch (error) {
      await handlePaymentError(error);
    }
  };

  const handlePaymentError = async (error: unknown, cardId?: string) => {
    const mapped = paymentErrorNotice(error);
    if (mapped.expired) return expire();
    // Whatever the error, the order knows the truth: a final state wins over the error text.
    const latest = await refreshPayment();
    if (latest && latest.state !== 'STARTED' && latest.state !== 'PROCESSING') return showPayment(latest);
    if (mapped.retry === 'none') return go({ kind: 'fatal', notice: mapped.notice });
    if (mapped.retry === 'choose-card' || !cardId) return go({ kind: 'cards' }, mapped.notice);
    go({ kind: 'pay-error', notice: mapped.notice, cardId });
  };

  const refreshPayment = async (): Promise<Payment | undefined> => {
    const ready = data.current;
    if (!ready) return undefined;
    try {
      const order = await ready.api.order(ready.context.outletId, ready.context.orderRef);
      return order.payments.find((p) => p.paymentRef === ready.paymentRef) ?? currentPayment(order);
    } catch {
      return undefined;
    }
  };

  const showPayment = (payment: Payment, onLoad = false) => {
    switch (payment.state) {
      case 'AUTHORISED':
      case 'CAPTURED':
      // The merchant has since captured, reversed or refunded: still never a second checkout.
      case 'PARTIALLY_CAPTURED':
      case 'REVERSED':
      case 'PARTIALLY_REFUNDED':
      case 'REFUNDED':
        return go({ kind: 'paid', payment, already: onLoad });
      case 'FAILED':
        return go({ kind: 'declined', payment });
      case 'AWAIT_3DS':
        return payment.threeDs ? go({ kind: 'three-ds', payment }) : go({ kind: 'fatal', notice: TEXT.serviceUnavailable, retry: 'load' });
      case 'PROCESSING':
        return go({ kind: 'fatal', notice: { title: 'Your payment is being processed', body: 'This can take a few seconds. Check again in a moment — you won’t be charged twice.' }, retry: 'load' });
      default:
        return onLoad ? undefined : go({ kind: 'fatal', notice: TEXT.serviceUnavailable, retry: 'load' });
    }
  };

  // ------------------------------------------------------------------------------- render
  const body = (() => {
    switch (view.kind) {
      case 'loading':
        return <ProcessingStep key={view.label} label={view.label} detail="Just a moment." />;
      case 'expired':
        return <NoticeStep notice={view.notice} icon="clock" result="expired" />;
      case 'fatal':
        return (
          <NoticeStep notice={view.notice} icon="error" result="error">
            {view.retry ? (
              <Button onClick={() => void (view.retry === 'init' ? initSdk() : load())}>Try again</Button>
            ) : null}
          </NoticeStep>
        );
      case 'identity':
        return (
          <IdentityStep
            key={`identity-${String(view.notFound)}`}
            draft={draft}
            onDraft={setDraft}
            onSubmit={lookup}
            notFound={Boolean(view.notFound)}
            onAddCard={() => go({ kind: 'add-card', newConsumer: true })}
            focusHeading={!alert}
          />
        );
      case 'otp':
        return (
          <OtpStep
            maskedChannel={view.maskedChannel}
            channel={view.channel}
            onSubmit={validateOtp}
            onResend={resendOtp}
            onChangeIdentity={() => void switchIdentity('Enter another email address or mobile number.')}
          />
        );
      case 'cards-error':
        return (
          <NoticeStep notice={TEXT.cardsFailed} icon="error" result="retry">
            <Button onClick={() => void loadCards()}>Try again</Button>
            <Button variant="secondary" onClick={() => void switchIdentity()}>
              Use a different email or number
            </Button>
          </NoticeStep>
        );
      case 'cards':
        return (
          <CardsStep
            cards={cards}
            consumer={consumer}
            typedIdentity={typedIdentity}
            selected={selected}
            onSelect={setSelected}
            onPay={(id) => void pay(id)}
            onAddCard={() => go({ kind: 'add-card', newConsumer: false })}
            onNotYou={() => void switchIdentity()}
            amountText={amountText}
            focusHeading={!alert}
          />
        );
      case 'add-card':
        return (
          <AddCardStep
            acceptedBrands={loaded?.config.cardBrands ?? []}
            onSubmit={(card) => enroll(card, view.newConsumer)}
            onCancel={view.newConsumer ? () => go({ kind: 'identity' }) : () => go({ kind: 'cards' })}
            cancelLabel={view.newConsumer ? 'Back' : cards.length ? 'Back to your cards' : 'Back'}
            focusHeading={!alert}
          />
        );
      case 'processing':
        return <ProcessingStep key={view.label} label={view.label} />;
      case 'pay-error':
        return (
          <NoticeStep notice={view.notice} icon={view.notice === TEXT.authorizationUnavailable ? 'clock' : 'error'} result="retry">
            <Button onClick={() => void pay(view.cardId)}>Try again</Button>
            <Button variant="secondary" onClick={() => go({ kind: 'cards' })}>
              Choose another card
            </Button>
          </NoticeStep>
        );
      case 'three-ds':
        return <ThreeDsStep payment={view.payment} onComplete={(cres) => void completeThreeDs(cres)} />;
      case 'paid':
        return <SuccessStep payment={view.payment} details={details} already={view.already} />;
      case 'declined':
        return <DeclinedStep payment={view.payment} notice={declineMessage(view.payment.failure?.code)} details={details} />;
    }
  })();

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
            <span class="accepted" aria-label={`Accepted cards: ${brands.join(', ')}`}>
              {brands.map((b) => (
                <BrandMark brand={b} size="sm" key={b} />
              ))}
            </span>
          </div>
          {step >= 0 && step < 3 ? (
            <ol class="stepper" aria-label="Progress">
              {['Sign in', 'Choose card', 'Pay'].map((label, index) => (
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
          {body}
          <p class="sr-only" role="status" aria-live="polite">
            {status}
          </p>
          {status && (view.kind === 'identity' || view.kind === 'cards') ? (
            <p class="status-note" aria-hidden="true">
              {status}
            </p>
          ) : null}
        </section>
        {loaded?.config.environment === 'sandbox' ? <SandboxHints /> : null}
      </main>
      <footer class="footer">
        <LockIcon /> Card details are encrypted and never shared with {merchantName || 'the merchant'}.
      </footer>
    </div>
  );
}

function SandboxHints() {
  return (
    <details class="sandbox">
      <summary>
        <span class="sandbox-badge">Test mode</span> No real money moves. Show test details
      </summary>
      <ul>
        <li>
          Returning customer: <code>returning@example.com</code> or <code>+971500000001</code>
        </li>
        <li>
          No cards yet: <code>new@example.com</code>
        </li>
        <li>
          One-time code: <code>123456</code> · bank verification code: <code>1234</code>
        </li>
        <li>
          Test card to add: <code>4111 1111 1111 1111</code>, any future expiry, any 3-digit code
        </li>
      </ul>
    </details>
  );
}
