import type { ComponentChildren } from 'preact';

/** One line of a result's receipt (`<dl class="receipt">`): nothing when there is no value. */
export function ReceiptRow({ label, children, valueClass }: { label: string; children: ComponentChildren; valueClass?: string | undefined }) {
  if (children === undefined || children === null || children === '') return null;
  return (
    <div>
      <dt>{label}</dt>
      <dd class={valueClass}>{children}</dd>
    </div>
  );
}
