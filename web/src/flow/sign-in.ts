import { otpMessage, resendMessage, TEXT } from '../messages.js';
import { isSdkError, type ConsumerIdentity } from '../sdk/index.js';
import type { OtpFailure } from '../steps/otp.js';
import { loadCards } from './cards.js';
import type { FlowContext } from './context.js';
import { initSdk } from './session.js';
import { MAX_OTP_FAILURES } from './state.js';

/** Signing in to Click to Pay: identity lookup, one-time code, signing out. */

/** Resolves to a message for the identity field when the SDK rejects what was typed. */
export async function lookup(ctx: FlowContext, identity: ConsumerIdentity): Promise<string | undefined> {
  const { sdk, store } = ctx;
  if (!sdk) return void initSdk(ctx);
  store.dispatch({ type: 'lookupStarted' });
  try {
    const result = await sdk.identityLookup(identity);
    if (!result.consumerPresent) {
      store.dispatch({ type: 'consumerNotFound', typed: identity.value });
      return undefined;
    }
    store.dispatch({
      type: 'consumerFound',
      ...(result.validation ? { otp: { maskedChannel: result.validation.maskedChannel, channel: result.validation.channel } } : {}),
    });
    if (!result.validation) await loadCards(ctx);
    return undefined;
  } catch (error) {
    if (isSdkError(error) && error.reason === 'NOT_AUTHENTICATED') return void (await initSdk(ctx, { alert: TEXT.authFailed }));
    if (isSdkError(error) && error.reason === 'INVALID_IDENTITY') {
      return identity.type === 'EMAIL'
        ? 'Click to Pay can’t use this email address. Check it and try again.'
        : 'Click to Pay can’t use this mobile number. Check it and try again.';
    }
    store.dispatch({ type: 'signInFailed', alert: isSdkError(error) && error.reason === 'ACCOUNT_LOCKED' ? TEXT.accountLocked : TEXT.authFailed });
    return undefined;
  }
}

export async function switchIdentity(
  ctx: FlowContext,
  message = 'You’re signed out of Click to Pay. Enter another email address or mobile number.',
): Promise<void> {
  const sdk = ctx.sdk;
  ctx.store.dispatch({ type: 'signOutStarted' });
  await sdk?.signOut().catch(() => undefined);
  await initSdk(ctx, { status: message });
}

/** Undefined when the code was right (the cards follow); otherwise what the OTP step shows. */
export async function validateOtp(ctx: FlowContext, code: string): Promise<OtpFailure | undefined> {
  const { sdk, store } = ctx;
  if (!sdk) return { message: TEXT.sdkInit.body, locked: true, expired: false };
  try {
    const result = await sdk.validateOtp(code);
    store.dispatch({ type: 'otpAccepted', consumer: result.consumer });
    await loadCards(ctx);
    return undefined;
  } catch (error) {
    const failure = otpMessage(error);
    store.dispatch({ type: 'otpRejected' });
    // The SDK may allow more tries than we do: the page stops asking after MAX_OTP_FAILURES.
    if (store.getState().otpFailures >= MAX_OTP_FAILURES) failure.locked = true;
    return failure;
  }
}

export async function resendOtp(ctx: FlowContext): Promise<{ ok: true; maskedChannel: string; resendsLeft?: number } | { ok: false; message: string }> {
  if (!ctx.sdk) return { ok: false, message: resendMessage(undefined) };
  try {
    return { ok: true, ...(await ctx.sdk.resendOtp()) };
  } catch (error) {
    return { ok: false, message: resendMessage(error) };
  }
}
