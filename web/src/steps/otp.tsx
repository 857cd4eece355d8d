import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { AlertBox, Button, Field, StepHeading } from '../components/ui.js';
import { OTP_LOCKED } from '../messages.js';
import type { ValidationChannel } from '../sdk/types.js';
import { validateOtpFormat } from '../validation.js';
import type { Submit } from './submit.js';

/** What the flow answers to a wrong code: the field's message, and whether more tries are allowed. */
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

  useLayoutEffect(() => {
    input.current?.focus(); // before paint: typing that starts at once lands in the field
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
