import type { Payment } from '../api.js';
import { CrossIcon } from '../components/icons.js';
import { paymentCard, type ResultDetails } from '../components/receipt.js';
import { ReceiptRow } from '../components/receipt-row.js';
import { Button, StepHeading } from '../components/ui.js';
import type { Notice } from '../messages.js';

/**
 * A declined payment. When the server marks it retryable the shopper may pay the same order
 * with another card; otherwise the way forward is back to the shop.
 */
export function DeclinedStep({ payment, notice, details, onRetry }: { payment: Payment; notice: Notice; details: ResultDetails; onRetry?: () => void }) {
  const card = paymentCard(payment);
  return (
    <div class="step step--center result" data-result="declined">
      <CrossIcon />
      <StepHeading>{notice.title}</StepHeading>
      <p class="step-lead" role="alert">
        {notice.body}
      </p>
      <dl class="receipt">
        <ReceiptRow label="Card">{card}</ReceiptRow>
        <ReceiptRow label="Amount">{details.amountText}</ReceiptRow>
      </dl>
      {onRetry ? (
        <div class="result-actions">
          <Button onClick={onRetry}>Try another card</Button>
        </div>
      ) : null}
      {details.shop?.autoReturn ? (
        <p class="fine-print fine-print--center" role="status">
          Taking you back to {details.shop.name}…
        </p>
      ) : !onRetry && !details.shop ? (
        <p class="fine-print fine-print--center">To try again with another card or payment method, return to {details.merchantName} and start a new payment.</p>
      ) : null}
    </div>
  );
}
