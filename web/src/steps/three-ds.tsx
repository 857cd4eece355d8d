import { useEffect, useRef, useState } from 'preact/hooks';
import type { Payment } from '../api.js';
import { Button, StepHeading } from '../components/ui.js';
import { acsTarget, cresOf, newSessionData, postCreq } from '../three-ds-challenge.js';

/**
 * The issuer's challenge in an iframe, as EMV 3DS 2.2's browser flow has it
 * (docs/integrating/three-ds.md): a hidden form POSTs the creq into the frame at the ACS (any origin); the ACS
 * POSTs the cres to our notification URL in that frame, whose page posts it here — taken only
 * from our own origin, from that frame, with this challenge's session data, once. No pop-up,
 * so it works in a WebView.
 */
export function ThreeDsStep(props: { payment: Payment; onComplete: (cres: string) => void }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const done = useRef(false);
  const sessionData = useRef(newSessionData());
  const [attempt, setAttempt] = useState(0);
  const threeDs = props.payment.threeDs;
  const frameName = `ctp-3ds-challenge-${attempt}`;

  useEffect(() => {
    const target = threeDs?.acsUrl ? acsTarget(threeDs.acsUrl, location.href) : undefined;
    if (threeDs?.creq && target) postCreq(document, frameName, target, threeDs.creq, sessionData.current);
  }, [attempt]);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const cres = cresOf(event, { origin: location.origin, frame: frame.current?.contentWindow, sessionData: sessionData.current });
      if (cres === undefined || done.current) return;
      done.current = true;
      props.onComplete(cres);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);

  return (
    <div class="step">
      <StepHeading>Confirm it’s you</StepHeading>
      <p class="step-lead">Your bank wants to confirm this payment. Complete the check below — it only takes a moment.</p>
      <div class="challenge">
        <iframe key={attempt} ref={frame} name={frameName} title="Verification by your card issuer" class="challenge-frame" />
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
