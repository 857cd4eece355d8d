import { useRef, useState } from 'preact/hooks';
import { Button, Field, StepHeading } from '../components/ui.js';
import type { IdentityDraft } from '../flow/state.js';
import type { ConsumerIdentity } from '../sdk/types.js';
import { validateEmail, validateMobile } from '../validation.js';
import type { Submit } from './submit.js';

/** Sign in: the email address or mobile number of the shopper's Click to Pay profile. */
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
            We couldn’t find Click to Pay for {draft.mode === 'email' ? 'this email address' : 'this mobile number'}. Check it for typos, or add a card to pay
            now.
          </p>
          <Button variant="secondary" onClick={props.onAddCard}>
            Add a card
          </Button>
        </div>
      ) : null}
    </div>
  );
}
