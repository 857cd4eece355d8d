import { brandName, formatExpiry } from '../format.js';
import type { MaskedCard } from '../sdk/types.js';
import { BrandMark } from './icons.js';

/** One Click to Pay card as the shopper recognises it: brand, last four, expiry. */
export function CardTile({ card }: { card: MaskedCard }) {
  return (
    <span class="card-tile">
      <BrandMark brand={card.brand} decorative />
      <span class="card-tile-text">
        <span class="card-tile-number">
          {brandName(card.brand)} <span aria-hidden="true">••••</span>
          <span class="sr-only">ending in</span> {card.panLastFour}
        </span>
        {/* The expiry is what tells two cards of one brand apart: it never shrinks; a long card name gives way. */}
        <span class="card-tile-meta">
          {card.descriptorName ? (
            <>
              <span class="card-tile-name">{card.descriptorName}</span>
              <span class="card-tile-sep" aria-hidden="true">
                ·
              </span>
            </>
          ) : null}
          <span class="card-tile-expiry">Expires {formatExpiry(card.panExpirationMonth, card.panExpirationYear)}</span>
        </span>
      </span>
    </span>
  );
}
