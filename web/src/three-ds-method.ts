/**
 * The 3DS Method, the page's half (EMV 3DS 2.2; docs/integrating/three-ds.md): a hidden iframe,
 * a hidden form that POSTs `threeDSMethodData` to the card range's 3DS Method URL into it; the
 * ACS fingerprints the browser and form-POSTs its completion to the service's
 * /checkout/3ds-method-notification in that iframe, whose page posts
 * `{type: 'ctp-3ds-method', threeDSServerTransID}` here. Completed within 10 s → Y, else N.
 */
export const METHOD_MESSAGE_TYPE = 'ctp-3ds-method';
/** EMV 3DS 2.2: a 3DS Method that has not completed within 10 seconds has failed. */
export const METHOD_TIMEOUT_MS = 10_000;
export const METHOD_FRAME_NAME = 'ctp-3ds-method';

/** Whether a message is the completion of this transaction's 3DS Method: our own origin, our iframe, this id. */
export function isMethodCompletion(
  event: Pick<MessageEvent, 'origin' | 'source' | 'data'>,
  expected: { origin: string; frame: unknown; transactionId: string },
): boolean {
  if (event.origin !== expected.origin || !expected.frame || event.source !== expected.frame) return false;
  const data = event.data as { type?: unknown; threeDSServerTransID?: unknown } | null;
  return (
    !!data &&
    typeof data === 'object' &&
    data.type === METHOD_MESSAGE_TYPE &&
    String(data.threeDSServerTransID).toLowerCase() === expected.transactionId.toLowerCase()
  );
}

/** Runs the method in `frame` and resolves Y on its completion, N after `timeoutMs` without it. */
export function runThreeDsMethod(
  doc: Document,
  frame: HTMLIFrameElement,
  method: { url: string; threeDSMethodData: string },
  transactionId: string,
  timeoutMs = METHOD_TIMEOUT_MS,
): Promise<'Y' | 'N'> {
  const win = doc.defaultView!;
  return new Promise((resolve) => {
    const finish = (indicator: 'Y' | 'N') => {
      win.clearTimeout(timer);
      win.removeEventListener('message', onMessage);
      resolve(indicator);
    };
    const onMessage = (event: MessageEvent) => {
      if (isMethodCompletion(event, { origin: win.location.origin, frame: frame.contentWindow, transactionId })) finish('Y');
    };
    win.addEventListener('message', onMessage);
    const timer = win.setTimeout(() => finish('N'), timeoutMs);
    const form = doc.createElement('form');
    form.method = 'post';
    form.action = method.url;
    form.target = frame.name;
    form.enctype = 'application/x-www-form-urlencoded';
    form.hidden = true;
    const input = doc.createElement('input');
    input.type = 'hidden';
    input.name = 'threeDSMethodData';
    input.value = method.threeDSMethodData;
    form.appendChild(input);
    doc.body.appendChild(form);
    form.submit();
    form.remove();
  });
}
