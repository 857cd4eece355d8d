import type { ResultDetails } from './components/receipt.js';
import { Button } from './components/ui.js';
import type { CheckoutFlow } from './flow/checkout-flow.js';
import { isRetryable } from './flow/reducer.js';
import type { FlowState } from './flow/state.js';
import { declineMessage, TEXT } from './messages.js';
import { AddCardStep } from './steps/add-card.js';
import { CardsStep } from './steps/cards.js';
import { DeclinedStep } from './steps/declined.js';
import { IdentityStep } from './steps/identity.js';
import { NoticeStep } from './steps/notice.js';
import { OtpStep } from './steps/otp.js';
import { ProcessingStep } from './steps/processing.js';
import { SuccessStep } from './steps/success.js';
import { ThreeDsStep } from './steps/three-ds.js';

/** The step for the current view, wired to the flow. */
export function StepView({ state, flow, details }: { state: FlowState; flow: CheckoutFlow; details: ResultDetails }) {
  const { view, alert, cards } = state;
  const dispatch = flow.store.dispatch;
  switch (view.kind) {
    case 'loading':
      return <ProcessingStep key={view.label} label={view.label} detail="Just a moment." />;
    case 'expired':
      return <NoticeStep notice={TEXT.sessionExpired} icon="clock" result="expired" />;
    case 'invalid':
      return <NoticeStep notice={TEXT.sessionInvalid} icon="error" result="invalid" />;
    case 'fatal':
      return (
        <NoticeStep notice={view.notice} icon="error" result="error">
          {view.retry ? <Button onClick={() => void (view.retry === 'init' ? flow.initSdk() : flow.load())}>Try again</Button> : null}
        </NoticeStep>
      );
    case 'identity':
      return (
        <IdentityStep
          key={`identity-${String(view.notFound)}`}
          draft={state.draft}
          onDraft={(draft) => dispatch({ type: 'draftChanged', draft })}
          onSubmit={flow.lookup}
          notFound={Boolean(view.notFound)}
          onAddCard={() => dispatch({ type: 'addCardOpened', newConsumer: true })}
          focusHeading={!alert}
        />
      );
    case 'otp':
      return (
        <OtpStep
          maskedChannel={view.maskedChannel}
          channel={view.channel}
          onSubmit={flow.validateOtp}
          onResend={flow.resendOtp}
          onChangeIdentity={() => void flow.switchIdentity('Enter another email address or mobile number.')}
        />
      );
    case 'cards-error':
      return (
        <NoticeStep notice={TEXT.cardsFailed} icon="error" result="retry">
          <Button onClick={() => void flow.loadCards()}>Try again</Button>
          <Button variant="secondary" onClick={() => void flow.switchIdentity()}>
            Use a different email or number
          </Button>
        </NoticeStep>
      );
    case 'cards':
      return (
        <CardsStep
          cards={cards}
          consumer={state.consumer}
          typedIdentity={state.typedIdentity}
          selected={state.selected}
          onSelect={(cardId) => dispatch({ type: 'cardSelected', cardId })}
          onPay={(cardId) => void flow.pay(cardId)}
          onAddCard={() => dispatch({ type: 'addCardOpened', newConsumer: false })}
          onNotYou={() => void flow.switchIdentity()}
          amountText={details.amountText}
          focusHeading={!alert}
        />
      );
    case 'add-card':
      return (
        <AddCardStep
          acceptedBrands={state.loaded?.config.cardBrands ?? []}
          onSubmit={(card) => flow.enroll(card, view.newConsumer)}
          onCancel={() => dispatch({ type: view.newConsumer ? 'identityShown' : 'cardsShown' })}
          cancelLabel={view.newConsumer ? 'Back' : cards.length ? 'Back to your cards' : 'Back'}
          focusHeading={!alert}
        />
      );
    case 'processing':
      return <ProcessingStep key={view.label} label={view.label} />;
    case 'pay-error':
      return (
        <NoticeStep notice={view.notice} icon={view.notice === TEXT.authorizationUnavailable ? 'clock' : 'error'} result="retry">
          <Button onClick={() => void flow.pay(view.cardId)}>Try again</Button>
          <Button variant="secondary" onClick={() => dispatch({ type: 'cardsShown' })}>
            Choose another card
          </Button>
        </NoticeStep>
      );
    case 'three-ds':
      return (
        <ThreeDsStep
          key={`${view.payment.threeDs?.transactionId}-${view.payment.threeDs?.acsUrl ? 'challenge' : 'method'}`}
          payment={view.payment}
          onComplete={(cres) => void flow.completeThreeDs(cres)}
          onMethodDone={(indicator) => void flow.continueThreeDs(indicator)}
        />
      );
    case 'paid':
      return <SuccessStep payment={view.payment} details={details} already={view.already} />;
    case 'declined':
      return (
        <DeclinedStep
          payment={view.payment}
          notice={declineMessage(view.payment.failure?.code)}
          details={details}
          {...(isRetryable(view.payment) ? { onRetry: () => void flow.retryWithAnotherCard() } : {})}
        />
      );
  }
}
