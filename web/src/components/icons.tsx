/** Brand marks and icons, drawn as inline SVG (no external images or fonts; CSP-safe). */

export function BrandMark({ brand, size = 'md', decorative = false }: { brand: string; size?: 'sm' | 'md'; decorative?: boolean }) {
  const cls = `brand-mark brand-mark--${size}`;
  const a11y = decorative ? { 'aria-hidden': 'true' as const } : { role: 'img' as const };
  switch (brand.toUpperCase()) {
    case 'VISA':
      return (
        <svg class={cls} viewBox="0 0 40 26" {...a11y} aria-label={decorative ? undefined : 'Visa'}>
          <rect width="40" height="26" rx="4" fill="#1a1f71" />
          <text
            x="20"
            y="17.5"
            text-anchor="middle"
            fill="#fff"
            font-family="Arial, Helvetica, sans-serif"
            font-size="11.5"
            font-weight="700"
            font-style="italic"
            letter-spacing=".4"
          >
            VISA
          </text>
        </svg>
      );
    case 'MASTERCARD':
      return (
        <svg class={cls} viewBox="0 0 40 26" {...a11y} aria-label={decorative ? undefined : 'Mastercard'}>
          <rect width="40" height="26" rx="4" fill="#252525" />
          <circle cx="15.5" cy="13" r="8" fill="#eb001b" />
          <circle cx="24.5" cy="13" r="8" fill="#f79e1b" />
          <path d="M20 6.39a8 8 0 0 1 0 13.22a8 8 0 0 1 0-13.22z" fill="#ff5f00" />
        </svg>
      );
    case 'AMEX':
      return (
        <svg class={cls} viewBox="0 0 40 26" {...a11y} aria-label={decorative ? undefined : 'American Express'}>
          <rect width="40" height="26" rx="4" fill="#2e77bc" />
          <text x="20" y="16.5" text-anchor="middle" fill="#fff" font-family="Arial, Helvetica, sans-serif" font-size="9" font-weight="700">
            AMEX
          </text>
        </svg>
      );
    case 'DISCOVER':
      return (
        <svg class={cls} viewBox="0 0 40 26" {...a11y} aria-label={decorative ? undefined : 'Discover'}>
          <rect x=".5" y=".5" width="39" height="25" rx="3.5" fill="#fff" stroke="#d0d5dd" />
          <circle cx="28" cy="13" r="5" fill="#f58220" />
          <text x="6" y="16" fill="#231f20" font-family="Arial, Helvetica, sans-serif" font-size="6.5" font-weight="700">
            DISC
          </text>
        </svg>
      );
    default:
      return (
        <svg class={cls} viewBox="0 0 40 26" {...a11y} aria-label={decorative ? undefined : 'Card'}>
          <rect x=".5" y=".5" width="39" height="25" rx="3.5" fill="#f1f5f9" stroke="#cbd5e1" />
          <rect x="5" y="7" width="8" height="6" rx="1.5" fill="#94a3b8" />
        </svg>
      );
  }
}

/** A neutral "Click to Pay" mark: a card with a forward arrow. */
export function ClickToPayMark() {
  return (
    <svg class="ctp-mark" viewBox="0 0 32 32" aria-hidden="true">
      <rect x="1" y="5" width="30" height="22" rx="5" fill="#0f172a" />
      <path d="M9 16h12m-4-4.5L21.5 16 17 20.5" fill="none" stroke="#fff" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round" />
    </svg>
  );
}

export function LockIcon() {
  return (
    <svg class="icon" viewBox="0 0 20 20" aria-hidden="true">
      <path d="M6 8V6a4 4 0 1 1 8 0v2" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" />
      <rect x="3.5" y="8" width="13" height="9.5" rx="2.2" fill="currentColor" />
    </svg>
  );
}

export function CheckIcon() {
  return (
    <svg class="result-icon result-icon--success" viewBox="0 0 48 48" aria-hidden="true">
      <circle cx="24" cy="24" r="22" fill="currentColor" />
      <path d="M14.5 24.5l6.5 6.5 13-14" fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round" />
    </svg>
  );
}

export function CrossIcon() {
  return (
    <svg class="result-icon result-icon--error" viewBox="0 0 48 48" aria-hidden="true">
      <circle cx="24" cy="24" r="22" fill="currentColor" />
      <path d="M17 17l14 14M31 17L17 31" fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" />
    </svg>
  );
}

export function ClockIcon() {
  return (
    <svg class="result-icon result-icon--warning" viewBox="0 0 48 48" aria-hidden="true">
      <circle cx="24" cy="24" r="22" fill="currentColor" />
      <path d="M24 13v12l7 4" fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round" />
    </svg>
  );
}

export function AlertIcon() {
  return (
    <svg class="icon icon--alert" viewBox="0 0 20 20" aria-hidden="true">
      <circle cx="10" cy="10" r="9" fill="currentColor" />
      <path d="M10 5.5v5.5" stroke="#fff" stroke-width="2" stroke-linecap="round" />
      <circle cx="10" cy="14.2" r="1.2" fill="#fff" />
    </svg>
  );
}

export function Spinner({ label }: { label?: string }) {
  return (
    <span class="spinner" {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': 'true' })}>
      <svg viewBox="0 0 24 24" aria-hidden="true">
        <circle cx="12" cy="12" r="9.5" fill="none" stroke="currentColor" stroke-opacity=".2" stroke-width="3" />
        <path d="M21.5 12a9.5 9.5 0 0 0-9.5-9.5" fill="none" stroke="currentColor" stroke-width="3" stroke-linecap="round" />
      </svg>
    </span>
  );
}
