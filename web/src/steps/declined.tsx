import type { Payment } from '../api.js';
import { CrossIcon } from '../components/icons.js';
import { paymentCard, type ResultDetails } from '../components/receipt.js';
import { StepHeading } from '../components/ui.js';
import type { Notice } from '../messages.js';

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
