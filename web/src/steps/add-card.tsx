import { useRef, useState } from 'preact/hooks';
import { BrandMark, LockIcon } from '../components/icons.js';
import { Button, Field, StepHeading } from '../components/ui.js';
import { groupCardNumber } from '../format.js';
import { detectBrand, validateCard, type CardFormErrors, type CardFormValues, type ValidCard } from '../validation.js';
import type { Submit } from './submit.js';

/** A new card, checked in the page (Luhn, expiry, code, name) before the flow encrypts and enrolls it. */
export function AddCardStep(props: {
  acceptedBrands: string[];
  onSubmit: (card: ValidCard) => Promise<void>;
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
          trailing={
            brand ? (
              <span class="field-trailing">
                <BrandMark brand={brand} size="sm" />
              </span>
            ) : null
          }
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
