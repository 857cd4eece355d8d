/** Test mode only (merchant environment "sandbox"): the sandbox's test identities, codes and card. */
export function SandboxHints() {
  return (
    <details class="sandbox">
      <summary>
        <span class="sandbox-badge">Test mode</span> No real money moves. Show test details
      </summary>
      <ul>
        <li>
          Returning customer: <code>returning@example.com</code> or <code>+971500000001</code>
        </li>
        <li>
          No cards yet: <code>new@example.com</code>
        </li>
        <li>
          One-time code: <code>123456</code> · bank verification code: <code>1234</code>
        </li>
        <li>
          Test card to add: <code>4111 1111 1111 1111</code>, any future expiry, any 3-digit code
        </li>
      </ul>
    </details>
  );
}
