import type { JSX } from 'preact';
import { ClockIcon, CrossIcon } from '../components/icons.js';
import { StepHeading } from '../components/ui.js';
import type { Notice } from '../messages.js';

/** An end or a stop that is not a payment result: expired or unknown session, an error with a way forward. */
export function NoticeStep({
  notice,
  icon,
  result,
  children,
}: {
  notice: Notice;
  icon: 'error' | 'clock';
  /** data-result: what kind of end this is (for tests and styling). */
  result: 'expired' | 'invalid' | 'error' | 'retry';
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
