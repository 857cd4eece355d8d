import { escapeHtml } from './http-util.js';

/**
 * The fake ACS's pages. Each ending page form-POSTs to the requestor (3DS Method completion,
 * final CRes) with a small inline script, as ACS pages do; a plain HTTP client reads the form.
 */
function page(title: string, body: string, script = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font:16px system-ui,sans-serif;margin:0;padding:16px;color:#1a1a2e;background:#fff}h1{font-size:18px;margin:0 0 8px}p{margin:0 0 12px}
input{font:inherit;padding:8px;border:1px solid #888;border-radius:6px;width:8em}button{font:inherit;padding:8px 14px;border-radius:6px;border:0;background:#1f4fd1;color:#fff;margin-right:8px}
button.secondary{background:#e6e6ef;color:#1a1a2e}.bank{font-weight:700;color:#1f4fd1;margin-bottom:12px}</style></head>
<body>${body}${script ? `<script>${script}</script>` : ''}</body></html>`;
}

/** An auto-submitting form: `id="post"`, hidden fields, posted on load. */
export function autoPost(title: string, action: string, fields: Record<string, string>, note: string): string {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  return page(
    title,
    `<p>${escapeHtml(note)}</p><form id="post" method="post" action="${escapeHtml(action)}" enctype="application/x-www-form-urlencoded">${inputs}</form>`,
    `document.getElementById('post').submit();`,
  );
}

/** The 3DS Method page of a range whose method never completes: it "fingerprints" forever. */
export function methodStuck(): string {
  return page('Device data', '<p>Collecting device data…</p>');
}

export function challengePage(input: { acsTransID: string; sessionData?: string; auto?: 'pass' | 'fail'; amountHint?: string }): string {
  const hidden = `<input type="hidden" name="acsTransID" value="${escapeHtml(input.acsTransID)}">${input.sessionData === undefined ? '' : `<input type="hidden" name="threeDSSessionData" value="${escapeHtml(input.sessionData)}">`}`;
  const form = `<form id="answer" method="post" action="challenge/answer" enctype="application/x-www-form-urlencoded">${hidden}
<label for="code">One-time code</label><p><input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="8"></p>
<button type="submit" name="action" value="submit">Confirm</button><button class="secondary" type="submit" name="action" value="cancel">Cancel</button></form>`;
  const body = `<div class="bank">Fake Issuer Bank</div><h1>Confirm your payment</h1><p>We sent a code to your phone. Test code: <strong>1234</strong>.</p>${form}`;
  const script = input.auto
    ? `document.getElementById('code').value=${JSON.stringify(input.auto === 'pass' ? '1234' : '0000')};document.getElementById('answer').submit();`
    : '';
  return page('Confirm your payment', body, script);
}

export function acsError(message: string): string {
  return page('Verification not possible', `<div class="bank">Fake Issuer Bank</div><h1>Verification not possible</h1><p>${escapeHtml(message)}</p>`);
}
