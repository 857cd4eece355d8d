import { CardTile } from '../components/card-tile.js';
import { LockIcon } from '../components/icons.js';
import { Button, StepHeading } from '../components/ui.js';
import type { MaskedCard, MaskedConsumer } from '../sdk/types.js';
import type { Submit } from './submit.js';

/** The shopper's Click to Pay cards (one radio group), or the empty state with "Add a card". */
export function CardsStep(props: {
  cards: MaskedCard[];
  consumer: MaskedConsumer;
  typedIdentity?: string;
  selected: string | undefined;
  onSelect: (id: string) => void;
  onPay: (id: string) => void;
  onAddCard: () => void;
  onNotYou: () => void;
  amountText: string;
  focusHeading: boolean;
}) {
  const who = props.consumer.maskedEmail ?? props.consumer.maskedMobileNumber;
  const selected = props.cards.find((card) => card.srcDigitalCardId === props.selected) ?? props.cards[0];
  const consumerLine = (
    <p class="consumer-line">
      <span>
        {who ? (
          <>
            Signed in as <strong>{who}</strong>
          </>
        ) : props.typedIdentity ? (
          <>
            Paying as <strong>{props.typedIdentity}</strong>
          </>
        ) : (
          'Signed in to Click to Pay'
        )}
      </span>
      <Button variant="link" onClick={props.onNotYou}>
        Not you?
      </Button>
    </p>
  );
  if (props.cards.length === 0) {
    return (
      <div class="step">
        <StepHeading focus={props.focusHeading}>No cards yet</StepHeading>
        {consumerLine}
        <div class="empty-state">
          <svg viewBox="0 0 64 44" class="empty-art" aria-hidden="true">
            <rect x="2" y="2" width="60" height="40" rx="7" fill="#eef2ff" stroke="#c7d2fe" stroke-width="2" stroke-dasharray="5 4" />
            <path d="M32 14v16M24 22h16" stroke="#4f46e5" stroke-width="3" stroke-linecap="round" />
          </svg>
          <p>There are no cards in your Click to Pay profile. Add a card to pay {props.amountText} — it will be saved to Click to Pay for next time.</p>
        </div>
        <Button onClick={props.onAddCard}>Add a card</Button>
      </div>
    );
  }
  return (
    <div class="step">
      <StepHeading focus={props.focusHeading}>Choose a card</StepHeading>
      {consumerLine}
      <form
        class="form"
        onSubmit={(event: Submit) => {
          event.preventDefault();
          if (selected) props.onPay(selected.srcDigitalCardId);
        }}
      >
        <fieldset class="card-list">
          <legend class="sr-only">Your Click to Pay cards</legend>
          {props.cards.map((card) => (
            <label class={`card-option${selected?.srcDigitalCardId === card.srcDigitalCardId ? ' is-selected' : ''}`} key={card.srcDigitalCardId}>
              <input
                type="radio"
                name="card"
                value={card.srcDigitalCardId}
                checked={selected?.srcDigitalCardId === card.srcDigitalCardId}
                onChange={() => props.onSelect(card.srcDigitalCardId)}
              />
              <CardTile card={card} />
              <span class="radio-dot" aria-hidden="true" />
            </label>
          ))}
        </fieldset>
        <Button type="submit" testId="pay">
          <LockIcon /> Pay {props.amountText}
        </Button>
      </form>
      <div class="step-links">
        <Button variant="link" onClick={props.onAddCard}>
          + Add a new card
        </Button>
      </div>
    </div>
  );
}
