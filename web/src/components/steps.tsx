import type { JSX, TargetedSubmitEvent } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Payment } from '../api.js';
import { brandName, formatExpiry, groupCardNumber } from '../format.js';
import { OTP_LOCKED, type Notice } from '../messages.js';
import type { ConsumerIdentity, MaskedCard, MaskedConsumer, ValidationChannel } from '../sdk/types.js';
import { detectBrand, validateCard, validateEmail, validateMobile, validateOtpFormat, type CardFormErrors, type CardFormValues } from '../validation.js';
import { BrandMark, CheckIcon, ClockIcon, CrossIcon, LockIcon, Spinner } from './icons.js';
import { AlertBox, Button, Field, StepHeading } from './ui.js';

type Submit = TargetedSubmitEvent<HTMLFormElement>;

// ------------------------------------------------------------------------------ identity

export interface IdentityDraft {
  mode: 'email' | 'mobile';
  email: string;
  mobile: string;
}

export function IdentityStep(props: {
  draft: IdentityDraft;
  onDraft: (draft: IdentityDraft) => void;
  onSubmit: (identity: ConsumerIdentity) => Promise<string | undefined>;
  notFound: boolean;
  onAddCard: () => void;
  focusHeading: boolean;
}) {
  const { draft } = props;
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const submit = async (event: Submit) => {
    event.preventDefault();
    if (busy) return;
    const checked = draft.mode === 'email' ? validateEmail(draft.email) : validateMobile(draft.mobile);
    if (!checked.ok) {
      setError(checked.message);
      input.current?.focus();
      return;
    }
    setError(undefined);
    setBusy(true);
    const fieldError = await props.onSubmit(checked.identity);
    setBusy(false);
    if (fieldError) {
      setError(fieldError);
      input.current?.focus();
    }
  };

  const setMode = (mode: IdentityDraft['mode']) => {
    setError(undefined);
    props.onDraft({ ...draft, mode });
  };

  return (
    <div class="step">
      <StepHeading focus={props.focusHeading}>Pay with Click to Pay</StepHeading>
      <p class="step-lead">Enter the email address or mobile number of your Click to Pay profile. We’ll send you a one-time code.</p>
      <form class="form" onSubmit={submit} noValidate>
        <fieldset class="segmented">
          <legend class="sr-only">Sign in with</legend>
          {(['email', 'mobile'] as const).map((mode) => (
            <label class={`segmented-option${draft.mode === mode ? ' is-active' : ''}`} key={mode}>
              <input type="radio" name="identity-mode" value={mode} checked={draft.mode === mode} onChange={() => setMode(mode)} />
              <span>{mode === 'email' ? 'Email' : 'Mobile'}</span>
            </label>
          ))}
        </fieldset>
        {draft.mode === 'email' ? (
          <Field
            id="identity-email"
            label="Email address"
            type="email"
            inputMode="email"
            autoComplete="email"
            placeholder="name@example.com"
            value={draft.email}
            onInput={(email) => props.onDraft({ ...draft, email })}
            error={error}
            inputRef={input}
            maxLength={254}
          />
        ) : (
          <Field
            id="identity-mobile"
            label="Mobile number"
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            placeholder="+971 50 123 4567"
            hint="Include your country code."
            value={draft.mobile}
            onInput={(mobile) => props.onDraft({ ...draft, mobile })}
            error={error}
            inputRef={input}
            maxLength={24}
          />
        )}
        <Button type="submit" busy={busy}>
          Continue
        </Button>
      </form>
      {props.notFound ? (
        <div class="callout" role="status">
          <p class="callout-title">No Click to Pay profile found</p>
          <p>
            We couldn’t find Click to Pay for {draft.mode === 'email' ? 'this email address' : 'this mobile number'}. Check it for typos, or add a card
            to pay now.
          </p>
          <Button variant="secondary" onClick={props.onAddCard}>
            Add a card
          </Button>
        </div>
      ) : null}
    </div>
  );
}

// ----------------------------------------------------------------------------------- OTP

export interface OtpFailure {
  message: string;
  locked: boolean;
  expired: boolean;
}

export function OtpStep(props: {
  maskedChannel: string;
  channel: ValidationChannel;
  onSubmit: (code: string) => Promise<OtpFailure | undefined>;
  onResend: () => Promise<{ ok: true; maskedChannel: string; resendsLeft?: number } | { ok: false; message: string }>;
  onChangeIdentity: () => void;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [locked, setLocked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [resending, setResending] = useState(false);
  const [resendNote, setResendNote] = useState<string>();
  const [resendsLeft, setResendsLeft] = useState<number>();
  const [masked, setMasked] = useState(props.maskedChannel);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    input.current?.focus();
  }, []);

  const submit = async (event: Submit) => {
    event.preventDefault();
    if (busy || locked) return;
    const formatError = validateOtpFormat(code);
    if (formatError) {
      setError(formatError);
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError(undefined);
    const failure = await props.onSubmit(code);
    setBusy(false);
    if (!failure) return;
    setError(failure.message);
    setLocked(failure.locked);
    setCode('');
    if (!failure.locked) input.current?.focus();
  };

  const resend = async () => {
    if (resending) return;
    setResending(true);
    setResendNote(undefined);
    const result = await props.onResend();
    setResending(false);
    if (result.ok) {
      setMasked(result.maskedChannel || masked);
      setResendsLeft(result.resendsLeft);
      setError(undefined);
      setCode('');
      setResendNote(`We sent a new code to ${result.maskedChannel || masked}.`);
      input.current?.focus();
    } else {
      setResendNote(result.message);
      setResendsLeft(0);
    }
  };

  const where = props.channel === 'SMS' ? 'by text message to' : 'to';
  return (
    <div class="step">
      <StepHeading focus={false}>Enter your code</StepHeading>
      <p class="step-lead">
        Click to Pay sent a 6-digit code {where} <strong class="nowrap">{masked || 'your email or phone'}</strong>.
      </p>
      {locked ? (
        <AlertBox notice={OTP_LOCKED}>
          <Button variant="secondary" onClick={props.onChangeIdentity}>
            Use a different email or mobile number
          </Button>
        </AlertBox>
      ) : (
        <>
          <form class="form" onSubmit={submit} noValidate>
            <Field
              id="otp"
              label="One-time code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={code}
              onInput={(value) => setCode(value.replace(/\D/g, '').slice(0, 6))}
              error={error}
              inputRef={input}
              extraClass="field--otp"
            />
            <Button type="submit" busy={busy}>
              Verify code
            </Button>
          </form>
          <div class="step-links">
            {resendsLeft === 0 ? null : (
              <Button variant="link" onClick={resend} busy={resending}>
                Resend code
              </Button>
            )}
            <Button variant="link" onClick={props.onChangeIdentity}>
              Use a different email or number
            </Button>
          </div>
        </>
      )}
      <p class="field-hint" role="status" aria-live="polite">
        {resendNote ?? ''}
        {resendNote && resendsLeft !== undefined && resendsLeft > 0 ? ` ${resendsLeft === 1 ? '1 more code' : `${resendsLeft} more codes`} can be sent.` : ''}
      </p>
    </div>
  );
}

// --------------------------------------------------------------------------------- cards

export function CardTile({ card }: { card: MaskedCard }) {
  return (
    <span class="card-tile">
      <BrandMark brand={card.brand} decorative />
      <span class="card-tile-text">
        <span class="card-tile-number">
          {brandName(card.brand)} <span aria-hidden="true">••••</span>
          <span class="sr-only">ending in</span> {card.panLastFour}
        </span>
        <span class="card-tile-meta">
          {card.descriptorName ? `${card.descriptorName} · ` : ''}Expires {formatExpiry(card.panExpirationMonth, card.panExpirationYear)}
        </span>
      </span>
    </span>
  );
}

export function CardsStep(props: {
  cards: MaskedCard[];
  consumer: MaskedConsumer;
  typedIdentity?: string;
  selected: string | undefined;
  onSelect: (id: string) => void;
  onPay: (id: string) => void;
  onAddCard: () => void;
  onNotYou: () => void;
  amountText: string;
  focusHeading: boolean;
}) {
  const who = props.consumer.maskedEmail ?? props.consumer.maskedMobileNumber;
  const selected = props.cards.find((card) => card.srcDigitalCardId === props.selected) ?? props.cards[0];
  const consumerLine = (
    <p class="consumer-line">
      <span>
        {who ? (
          <>
            Signed in as <strong>{who}</strong>
          </>
        ) : props.typedIdentity ? (
          <>
            Paying as <strong>{props.typedIdentity}</strong>
          </>
        ) : (
          'Signed in to Click to Pay'
        )}
      </span>
      <Button variant="link" onClick={props.onNotYou}>
        Not you?
      </Button>
    </p>
  );
  if (props.cards.length === 0) {
    return (
      <div class="step">
        <StepHeading focus={props.focusHeading}>No cards yet</StepHeading>
        {consumerLine}
        <div class="empty-state">
          <svg viewBox="0 0 64 44" class="empty-art" aria-hidden="true">
            <rect x="2" y="2" width="60" height="40" rx="7" fill="#eef2ff" stroke="#c7d2fe" stroke-width="2" stroke-dasharray="5 4" />
            <path d="M32 14v16M24 22h16" stroke="#4f46e5" stroke-width="3" stroke-linecap="round" />
          </svg>
          <p>There are no cards in your Click to Pay profile. Add a card to pay {props.amountText} — it will be saved to Click to Pay for next time.</p>
        </div>
        <Button onClick={props.onAddCard}>Add a card</Button>
      </div>
    );
  }
  return (
    <div class="step">
      <StepHeading focus={props.focusHeading}>Choose a card</StepHeading>
      {consumerLine}
      <form
        class="form"
        onSubmit={(event: Submit) => {
          event.preventDefault();
          if (selected) props.onPay(selected.srcDigitalCardId);
        }}
      >
        <fieldset class="card-list">
          <legend class="sr-only">Your Click to Pay cards</legend>
          {props.cards.map((card) => (
            <label class={`card-option${selected?.srcDigitalCardId === card.srcDigitalCardId ? ' is-selected' : ''}`} key={card.srcDigitalCardId}>
              <input
                type="radio"
                name="card"
                value={card.srcDigitalCardId}
                checked={selected?.srcDigitalCardId === card.srcDigitalCardId}
                onChange={() => props.onSelect(card.srcDigitalCardId)}
              />
              <CardTile card={card} />
              <span class="radio-dot" aria-hidden="true" />
            </label>
          ))}
        </fieldset>
        <Button type="submit" testId="pay">
          <LockIcon /> Pay {props.amountText}
        </Button>
      </form>
      <div class="step-links">
        <Button variant="link" onClick={props.onAddCard}>
          + Add a new card
        </Button>
      </div>
    </div>
  );
}

// ------------------------------------------------------------------------------ add card

export function AddCardStep(props: {
  acceptedBrands: string[];
  onSubmit: (card: NonNullable<ReturnType<typeof validateCard>['card']>) => Promise<void>;
  onCancel?: () => void;
  cancelLabel?: string;
  focusHeading: boolean;
}) {
  const [values, setValues] = useState<CardFormValues>({ number: '', expiry: '', cvc: '', name: '' });
  const [errors, setErrors] = useState<CardFormErrors>({});
  const [busy, setBusy] = useState(false);
  const refs = {
    number: useRef<HTMLInputElement>(null),
    expiry: useRef<HTMLInputElement>(null),
    cvc: useRef<HTMLInputElement>(null),
    name: useRef<HTMLInputElement>(null),
  };
  const digits = values.number.replace(/\D/g, '');
  const brand = detectBrand(digits);

  const set = (key: keyof CardFormValues, value: string) => {
    setValues((current) => ({ ...current, [key]: value }));
    if (errors[key]) setErrors((current) => ({ ...current, [key]: undefined }));
  };

  const submit = async (event: Submit) => {
    event.preventDefault();
    if (busy) return;
    const result = validateCard(values, props.acceptedBrands);
    setErrors(result.errors);
    if (!result.card) {
      const first = (['number', 'expiry', 'cvc', 'name'] as const).find((key) => result.errors[key]);
      if (first) refs[first].current?.focus();
      return;
    }
    setBusy(true);
    await props.onSubmit(result.card);
    setBusy(false);
  };

  return (
    <div class="step">
      <StepHeading focus={props.focusHeading}>Add a card</StepHeading>
      <p class="step-lead">
        We accept{' '}
        {props.acceptedBrands.map((b) => (
          <BrandMark brand={b} size="sm" key={b} />
        ))}
      </p>
      <form class="form" onSubmit={submit} noValidate>
        <Field
          id="card-number"
          label="Card number"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 5678 9012 3456"
          value={groupCardNumber(digits)}
          onInput={(value) => set('number', value.replace(/\D/g, '').slice(0, 19))}
          error={errors.number}
          inputRef={refs.number}
          maxLength={23}
          trailing={brand ? <span class="field-trailing"><BrandMark brand={brand} size="sm" /></span> : null}
        />
        <div class="field-row">
          <Field
            id="card-expiry"
            label="Expiry date"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM/YY"
            hint="MM/YY"
            value={values.expiry}
            onInput={(value) => set('expiry', formatExpiryInput(value, values.expiry))}
            error={errors.expiry}
            inputRef={refs.expiry}
            maxLength={7}
          />
          <Field
            id="card-cvc"
            label="Security code"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder={brand === 'AMEX' ? '4 digits' : '3 digits'}
            hint={brand === 'AMEX' ? '4 digits on the front' : '3 digits on the back'}
            value={values.cvc}
            onInput={(value) => set('cvc', value.replace(/\D/g, '').slice(0, 4))}
            error={errors.cvc}
            inputRef={refs.cvc}
            maxLength={4}
          />
        </div>
        <Field
          id="card-name"
          label="Name on card"
          autoComplete="cc-name"
          value={values.name}
          onInput={(value) => set('name', value)}
          error={errors.name}
          inputRef={refs.name}
          maxLength={80}
        />
        <p class="fine-print">
          <LockIcon /> Your card details are encrypted on this page before they are sent. By adding the card you agree to save it to Click to Pay.
        </p>
        <Button type="submit" busy={busy}>
          Add card
        </Button>
      </form>
      {props.onCancel ? (
        <div class="step-links">
          <Button variant="link" onClick={props.onCancel}>
            {props.cancelLabel ?? 'Back to your cards'}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

/** Typing "12" → "12/", deleting keeps what the user has. */
function formatExpiryInput(value: string, previous: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 4);
  if (value.length < previous.length) return value.replace(/[^\d/]/g, '').slice(0, 5);
  if (digits.length === 1 && Number(digits) > 1) return `0${digits}/`;
  if (digits.length >= 2) return `${digits.slice(0, 2)}/${digits.slice(2)}`;
  return digits;
}

// ------------------------------------------------------------------------------------ 3DS

export function ThreeDsStep(props: { payment: Payment; onComplete: (cres: string) => void }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const done = useRef(false);
  const [attempt, setAttempt] = useState(0);
  const threeDs = props.payment.threeDs;
  const src = (() => {
    if (!threeDs) return '';
    try {
      const url = new URL(threeDs.acsUrl, location.href);
      url.searchParams.set('creq', threeDs.creq);
      return url.href;
    } catch {
      return '';
    }
  })();

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== location.origin) return;
      if (frame.current && event.source !== frame.current.contentWindow) return;
      const data = event.data as { type?: unknown; cres?: unknown } | null;
      if (!data || data.type !== 'ctp-3ds-complete' || typeof data.cres !== 'string' || done.current) return;
      done.current = true;
      props.onComplete(data.cres);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);

  return (
    <div class="step">
      <StepHeading>Confirm it’s you</StepHeading>
      <p class="step-lead">Your bank wants to confirm this payment. Complete the check below — it only takes a moment.</p>
      <div class="challenge">
        <iframe key={attempt} ref={frame} src={src} title="Verification by your card issuer" class="challenge-frame" />
      </div>
      <p class="fine-print">
        <span>
          Verification not showing?{' '}
          <Button variant="link" onClick={() => setAttempt((n) => n + 1)}>
            Reload it
          </Button>
        </span>
      </p>
    </div>
  );
}

// ------------------------------------------------------------------------ status screens

export function ProcessingStep({ label, detail }: { label: string; detail?: string }) {
  return (
    <div class="step step--center" aria-busy="true">
      <Spinner />
      <StepHeading>{label}</StepHeading>
      <p class="step-lead">{detail ?? 'Please don’t close or refresh this page.'}</p>
    </div>
  );
}

export interface ResultDetails {
  merchantName: string;
  amountText: string;
  orderReference?: string;
  /** The reference is our order id (no merchant reference): shown smaller, in monospace. */
  orderReferenceIsId?: boolean;
}

function paymentCard(payment: Payment): string | undefined {
  const method = payment.paymentMethod;
  const last = method?.panLastFour ?? method?.tokenLastFour;
  return last ? `${brandName(method?.brand)} •••• ${last}` : undefined;
}

export function SuccessStep({ payment, details, already }: { payment: Payment; details: ResultDetails; already?: boolean }) {
  const card = paymentCard(payment);
  return (
    <div class="step step--center result" data-result="success">
      <CheckIcon />
      <StepHeading>{already ? 'This order is already paid' : 'Payment successful'}</StepHeading>
      <p class="step-lead">
        You paid <strong>{details.amountText}</strong> to {details.merchantName}.
      </p>
      <dl class="receipt">
        {card ? (
          <div>
            <dt>Card</dt>
            <dd>{card}</dd>
          </div>
        ) : null}
        {payment.authorization?.code ? (
          <div>
            <dt>Approval code</dt>
            <dd>{payment.authorization.code}</dd>
          </div>
        ) : null}
        {details.orderReference ? (
          <div>
            <dt>Order</dt>
            <dd class={details.orderReferenceIsId ? 'receipt-ref' : undefined}>{details.orderReference}</dd>
          </div>
        ) : null}
      </dl>
      <p class="fine-print fine-print--center">You can close this window now.</p>
    </div>
  );
}

export function DeclinedStep({ payment, notice, details }: { payment: Payment; notice: Notice; details: ResultDetails }) {
  const card = paymentCard(payment);
  return (
    <div class="step step--center result" data-result="declined">
      <CrossIcon />
      <StepHeading>{notice.title}</StepHeading>
      <p class="step-lead" role="alert">
        {notice.body}
      </p>
      <dl class="receipt">
        {card ? (
          <div>
            <dt>Card</dt>
            <dd>{card}</dd>
          </div>
        ) : null}
        <div>
          <dt>Amount</dt>
          <dd>{details.amountText}</dd>
        </div>
      </dl>
      <p class="fine-print fine-print--center">
        To try again with another card or payment method, return to {details.merchantName} and start a new payment.
      </p>
    </div>
  );
}

export function NoticeStep({
  notice,
  icon,
  result,
  children,
}: {
  notice: Notice;
  icon: 'error' | 'clock';
  /** data-result: what kind of end this is (for tests and styling). */
  result: 'expired' | 'error' | 'retry';
  children?: JSX.Element | JSX.Element[] | null;
}) {
  return (
    <div class="step step--center result" data-result={result}>
      {icon === 'clock' ? <ClockIcon /> : <CrossIcon />}
      <StepHeading>{notice.title}</StepHeading>
      <p class="step-lead" role="alert">
        {notice.body}
      </p>
      {children ? <div class="result-actions">{children}</div> : null}
    </div>
  );
}
