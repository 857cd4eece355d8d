/**
 * Hosted payment page: the way back to the shop, on every screen once the order has a return
 * URL. Plain links in the same window (no pop-up, no target): a mobile app's WebView sees the
 * navigation to its return URL and can take over. "Cancel" is left out once the payment
 * succeeded — there is nothing left to cancel. `prominent`: the visit is over (a result), so
 * going back is the main action.
 */
export function ShopReturn(props: { shopName: string; backHref: string; cancelHref?: string; prominent: boolean; onLeave: () => void }) {
  return (
    <nav class={`shop-return${props.prominent ? ' shop-return--prominent' : ''}`} aria-label="Leave checkout">
      <a class={`btn ${props.prominent ? 'btn--primary' : 'btn--link'}`} href={props.backHref} onClick={props.onLeave} data-testid="back-to-shop">
        {props.prominent ? null : <span aria-hidden="true">← </span>}
        Back to {props.shopName}
      </a>
      {props.cancelHref ? (
        <a class="btn btn--link" href={props.cancelHref} onClick={props.onLeave} data-testid="cancel">
          Cancel
        </a>
      ) : null}
    </nav>
  );
}
