import { useEffect, useRef, useState } from 'preact/hooks';
import type { Payment } from '../api.js';
import { Button, StepHeading } from '../components/ui.js';

/**
 * The issuer's challenge in an iframe. The ACS page posts its CRes back to this window
 * (same origin only, from that frame only, once) — no pop-up, so it works in a WebView.
 */
export function ThreeDsStep(props: { payment: Payment; onComplete: (cres: string) => void }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const done = useRef(false);
  const [attempt, setAttempt] = useState(0);
  const threeDs = props.payment.threeDs;
  const src = (() => {
    if (!threeDs) return '';
    try {
      const url = new URL(threeDs.acsUrl, location.href);
      url.searchParams.set('creq', threeDs.creq);
      return url.href;
    } catch {
      return '';
    }
  })();

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== location.origin) return;
      if (frame.current && event.source !== frame.current.contentWindow) return;
      const data = event.data as { type?: unknown; cres?: unknown } | null;
      if (!data || data.type !== 'ctp-3ds-complete' || typeof data.cres !== 'string' || done.current) return;
      done.current = true;
      props.onComplete(data.cres);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);

  return (
    <div class="step">
      <StepHeading>Confirm it’s you</StepHeading>
      <p class="step-lead">Your bank wants to confirm this payment. Complete the check below — it only takes a moment.</p>
      <div class="challenge">
        <iframe key={attempt} ref={frame} src={src} title="Verification by your card issuer" class="challenge-frame" />
      </div>
      <p class="fine-print">
        <span>
          Verification not showing?{' '}
          <Button variant="link" onClick={() => setAttempt((n) => n + 1)}>
            Reload it
          </Button>
        </span>
      </p>
    </div>
  );
}
