import { useEffect, useRef, useState } from 'preact/hooks';
import type { Payment } from '../api.js';
import { Spinner } from '../components/icons.js';
import { Button, StepHeading } from '../components/ui.js';
import { WINDOW_SIZES, type ChallengeWindowSize } from '../three-ds-browser.js';
import { acsTarget, cresOf, newSessionData, postCreq } from '../three-ds-challenge.js';
import { METHOD_FRAME_NAME, runThreeDsMethod } from '../three-ds-method.js';

/**
 * A payment waiting for 3DS (SPEC 4.10, 4.17; docs/integrating/three-ds.md), in one of two steps:
 * - the 3DS Method (`threeDs.method`): the issuer's fingerprinting page in a hidden iframe,
 *   10 s at most, then 4.10 `{threeDSCompInd}`;
 * - the challenge (`threeDs.acsUrl` + `creq`): the issuer's challenge in an iframe of the window
 *   size the CReq asked for, as EMV 3DS 2.2's browser flow has it: a hidden form POSTs the creq
 *   into the frame at the ACS (any origin); the ACS POSTs the cres to our notification URL in
 *   that frame, whose page posts it here — taken only from our own origin, from that frame, with
 *   this challenge's session data, once. No pop-up, so it works in a WebView.
 */
export function ThreeDsStep(props: { payment: Payment; onComplete: (cres: string) => void; onMethodDone: (indicator: 'Y' | 'N') => void }) {
  const threeDs = props.payment.threeDs;
  if (threeDs?.method && !threeDs.acsUrl) return <MethodStep method={threeDs.method} transactionId={threeDs.transactionId} onDone={props.onMethodDone} />;
  return <ChallengeStep payment={props.payment} onComplete={props.onComplete} />;
}

function MethodStep(props: { method: { url: string; threeDSMethodData: string }; transactionId: string; onDone: (indicator: 'Y' | 'N') => void }) {
  const frame = useRef<HTMLIFrameElement>(null);
  useEffect(() => {
    let live = true;
    const url = acsTarget(props.method.url, location.href);
    const ran = url && frame.current ? runThreeDsMethod(document, frame.current, { ...props.method, url }, props.transactionId) : Promise.resolve<'N'>('N');
    void ran.then((indicator) => live && props.onDone(indicator));
    return () => {
      live = false;
    };
  }, []);
  return (
    <div class="step step--center" aria-busy="true" data-three-ds-step="method">
      <Spinner />
      <StepHeading>Checking with your bank</StepHeading>
      <p class="step-lead">Your bank is checking this device. It only takes a moment.</p>
      {/* The issuer's 3DS Method page: invisible, and nothing to interact with. */}
      <iframe ref={frame} name={METHOD_FRAME_NAME} title="Bank device check" class="method-frame" aria-hidden="true" tabIndex={-1} />
    </div>
  );
}

function ChallengeStep(props: { payment: Payment; onComplete: (cres: string) => void }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const done = useRef(false);
  const sessionData = useRef(newSessionData());
  /** The attempt whose creq was posted, and the one whose frame was focused (once each). */
  const posted = useRef(-1);
  const focused = useRef(-1);
  const [attempt, setAttempt] = useState(0);
  const threeDs = props.payment.threeDs;
  const frameName = `ctp-3ds-challenge-${attempt}`;
  const size = windowSize(threeDs?.challengeWindowSize);

  useEffect(() => {
    const target = threeDs?.acsUrl ? acsTarget(threeDs.acsUrl, location.href) : undefined;
    if (threeDs?.creq && target) {
      postCreq(document, frameName, target, threeDs.creq, sessionData.current);
      posted.current = attempt;
    }
  }, [attempt]);

  // Browsers ignore `autofocus` (and a script's focus()) in a cross-origin frame that does not
  // have focus, so the ACS's code field cannot take the cursor by itself. Once the ACS's page
  // has loaded, the page focuses the frame element — which a parent may always do: the
  // shopper's next key goes into the ACS's page, and an ACS that focuses its field when its
  // window gets focus puts the cursor there. Never taken from a control the shopper moved to.
  const onFrameLoad = () => {
    if (posted.current !== attempt || focused.current === attempt || !frame.current) return;
    const active = document.activeElement;
    if (active && active !== document.body && active !== frame.current && !active.classList.contains('step-title')) return;
    focused.current = attempt;
    frame.current.focus();
  };

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
    <div class="step" data-three-ds-step="challenge">
      <StepHeading>Confirm it’s you</StepHeading>
      <p class="step-lead">Your bank wants to confirm this payment. Complete the check below — it only takes a moment.</p>
      <p class="challenge-hint" data-testid="challenge-hint">
        If your bank asks for a code, select the code field in the box below to type it.
      </p>
      <div class={`challenge challenge-${size.key}`}>
        <iframe
          key={attempt}
          ref={frame}
          name={frameName}
          title="Verification by your card issuer"
          class="challenge-frame"
          data-window-size={size.key}
          onLoad={onFrameLoad}
          style={{ height: `${size.height}px`, ...(size.width ? { width: `${size.width}px` } : {}) }}
        />
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

/** The frame for the window size the CReq asked the ACS for (05, full width, when none was said). */
function windowSize(value: string | undefined): { key: ChallengeWindowSize; width?: number; height: number } {
  const key = (value && value in WINDOW_SIZES ? value : '05') as ChallengeWindowSize;
  return { key, ...WINDOW_SIZES[key] };
}
