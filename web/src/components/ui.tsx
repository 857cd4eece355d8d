import type { ComponentChildren, TargetedInputEvent } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { Notice } from '../messages.js';
import { AlertIcon, Spinner } from './icons.js';

/** The heading of a step; it takes focus when the step appears (tabindex=-1, not in tab order). */
export function StepHeading({ children, focus = true, id }: { children: ComponentChildren; focus?: boolean; id?: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  // A layout effect, before the step is painted: a deferred effect could move focus after the
  // shopper (or a fast keyboard) had already tabbed into the form, and their typing would be lost.
  useLayoutEffect(() => {
    if (focus) ref.current?.focus();
  }, []);
  return (
    <h2 class="step-title" tabIndex={-1} ref={ref} id={id}>
      {children}
    </h2>
  );
}

/** A page-level error or warning. Announced (role=alert) and focused when it appears. */
export function AlertBox({
  notice,
  tone = 'error',
  focus = true,
  children,
}: {
  notice: Notice;
  tone?: 'error' | 'warning';
  focus?: boolean;
  children?: ComponentChildren;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (focus) ref.current?.focus(); // before paint, as StepHeading's
  }, [notice]);
  return (
    <div class={`alert alert--${tone}`} role="alert" tabIndex={-1} ref={ref} data-testid="alert">
      <AlertIcon />
      <div class="alert-body">
        <p class="alert-title">{notice.title}</p>
        <p class="alert-text">{notice.body}</p>
        {children ? <div class="alert-actions">{children}</div> : null}
      </div>
    </div>
  );
}

export function Button({
  children,
  busy = false,
  variant = 'primary',
  type = 'button',
  onClick,
  id,
  testId,
  describedBy,
}: {
  children: ComponentChildren;
  busy?: boolean;
  variant?: 'primary' | 'secondary' | 'link';
  type?: 'button' | 'submit';
  onClick?: () => void;
  id?: string;
  testId?: string;
  describedBy?: string;
}) {
  return (
    <button
      id={id}
      type={type}
      class={`btn btn--${variant}${busy ? ' is-busy' : ''}`}
      aria-disabled={busy ? 'true' : undefined}
      aria-describedby={describedBy}
      data-testid={testId}
      onClick={(event) => {
        if (busy) {
          event.preventDefault();
          return;
        }
        onClick?.();
      }}
    >
      {busy ? <Spinner /> : null}
      <span>{children}</span>
    </button>
  );
}

export interface FieldProps {
  id: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
  error?: string;
  hint?: string;
  type?: 'text' | 'email' | 'tel';
  inputMode?: 'text' | 'email' | 'tel' | 'numeric';
  autoComplete?: string;
  placeholder?: string;
  maxLength?: number;
  inputRef?: { current: HTMLInputElement | null };
  extraClass?: string;
  trailing?: ComponentChildren;
}

export function Field(props: FieldProps) {
  const hintId = props.hint && !props.error ? `${props.id}-hint` : undefined;
  const errorId = props.error ? `${props.id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  const onInput = (event: TargetedInputEvent<HTMLInputElement>) => props.onInput(event.currentTarget.value);
  const common = {
    id: props.id,
    name: props.id,
    class: 'input',
    ref: props.inputRef,
    inputMode: props.inputMode,
    autoComplete: props.autoComplete,
    placeholder: props.placeholder,
    maxLength: props.maxLength,
    value: props.value,
    onInput,
    'aria-invalid': props.error ? ('true' as const) : undefined,
    'aria-describedby': describedBy,
    spellcheck: false,
  };
  return (
    <div class={`field${props.error ? ' has-error' : ''}${props.extraClass ? ` ${props.extraClass}` : ''}`}>
      <label class="field-label" for={props.id}>
        {props.label}
      </label>
      <div class="field-control">
        {props.type === 'email' ? (
          <input type="email" {...common} />
        ) : props.type === 'tel' ? (
          <input type="tel" {...common} />
        ) : (
          <input type="text" {...common} />
        )}
        {props.trailing}
      </div>
      {props.hint && !props.error ? (
        <p class="field-hint" id={hintId}>
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p class="field-error" id={errorId} role="alert">
          <AlertIcon />
          <span>{props.error}</span>
        </p>
      ) : null}
    </div>
  );
}
