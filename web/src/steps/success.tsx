import type { Payment } from '../api.js';
import { CheckIcon } from '../components/icons.js';
import { paymentCard, type ResultDetails } from '../components/receipt.js';
import { ReceiptRow } from '../components/receipt-row.js';
import { StepHeading } from '../components/ui.js';

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
        <ReceiptRow label="Card">{card}</ReceiptRow>
        <ReceiptRow label="Approval code">{payment.authorization?.code}</ReceiptRow>
        <ReceiptRow label="Order" valueClass={details.orderReferenceIsId ? 'receipt-ref' : undefined}>
          {details.orderReference}
        </ReceiptRow>
      </dl>
      {details.shop ? (
        details.shop.autoReturn ? (
          <p class="fine-print fine-print--center" role="status">
            Taking you back to {details.shop.name}…
          </p>
        ) : null
      ) : (
        <p class="fine-print fine-print--center">You can close this window now.</p>
      )}
    </div>
  );
}
