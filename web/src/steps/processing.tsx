import { Spinner } from '../components/icons.js';
import { StepHeading } from '../components/ui.js';

/** Waiting on the network or the bank: a spinner and what is happening. */
export function ProcessingStep({ label, detail }: { label: string; detail?: string }) {
  return (
    <div class="step step--center" aria-busy="true">
      <Spinner />
      <StepHeading>{label}</StepHeading>
      <p class="step-lead">{detail ?? 'Please don’t close or refresh this page.'}</p>
    </div>
  );
}
