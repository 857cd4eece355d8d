import { ApiError } from './api.js';
import { isSdkError } from './sdk/types.js';

/**
 * Every message the customer can see about a failure. Problem `code`s, SRC `reason`s and
 * decline codes are mapped here to our own words; nothing from an error payload is shown.
 */
export interface Notice {
  title: string;
  body: string;
}

export const TEXT = {
  sessionExpired: {
    title: 'Your payment session has expired',
    body: 'For your security, payment links are only valid for a limited time. Nothing has been charged. Go back to the shop and start the payment again to get a new link.',
  },
  sessionInvalid: {
    title: 'This payment link isn’t valid',
    body: 'It may be incomplete or mistyped. Nothing has been charged. Open the complete link the shop sent you, or go back to the shop and start the payment again.',
  },
  loadFailed: {
    title: 'We couldn’t load this payment',
    body: 'Something went wrong while preparing your payment. Nothing has been charged. Please try again.',
  },
  notEnabled: {
    title: 'Click to Pay isn’t available here',
    body: 'This shop can’t accept Click to Pay right now. Nothing has been charged. Please go back to the shop and choose another way to pay.',
  },
  sdkInit: {
    title: 'Click to Pay is unavailable right now',
    body: 'We couldn’t connect to Click to Pay. This is usually temporary. Nothing has been charged — please try again in a moment.',
  },
  accountLocked: {
    title: 'We couldn’t sign you in',
    body: 'Click to Pay couldn’t verify this account right now. Try a different email address or mobile number, or pay another way.',
  },
  authFailed: {
    title: 'We couldn’t sign you in',
    body: 'Click to Pay couldn’t check this email address or mobile number. Please try again.',
  },
  sessionLost: {
    title: 'Please sign in again',
    body: 'Your Click to Pay sign-in has ended. Enter your email address or mobile number to continue. Nothing has been charged.',
  },
  cardsFailed: {
    title: 'We couldn’t load your cards',
    body: 'Your Click to Pay cards couldn’t be retrieved just now. Nothing has been charged. Try again, or use a different email or mobile number.',
  },
  checkoutFailed: {
    title: 'Checkout with this card didn’t work',
    body: 'Click to Pay couldn’t complete the checkout. Nothing has been charged. Try again or choose another card.',
  },
  checkoutAbandoned: {
    title: 'Checkout was cancelled',
    body: 'Nothing has been charged. Choose a card to try again.',
  },
  authorizationUnavailable: {
    title: 'The bank didn’t respond in time',
    body: 'We couldn’t get an answer from the card issuer, so nothing has been charged. You can safely try again.',
  },
  serviceUnavailable: {
    title: 'Something went wrong on our side',
    body: 'The payment couldn’t be processed just now. Nothing has been charged. Please try again.',
  },
  enrollFailed: {
    title: 'We couldn’t add this card',
    body: 'Click to Pay didn’t accept the card details. Check them and try again, or use another card.',
  },
  threeDsFailed: {
    title: 'Your bank couldn’t verify this payment',
    body: 'The verification wasn’t completed, so the payment was not taken.',
  },
  retryFailed: {
    title: 'We couldn’t start a new payment',
    body: 'Nothing has been charged. Please try again in a moment, or go back to the shop.',
  },
  chooseAnotherCard: {
    title: 'Choose another card',
    body: 'Your last payment was declined and nothing was charged. Choose another card to pay for the same order.',
  },
} satisfies Record<string, Notice>;

export const OTP_LOCKED: Notice = {
  title: 'Too many incorrect codes',
  body: 'For your security, sign-in with this account is paused. Use a different email address or mobile number, or try again later.',
};

/** OTP validation errors: one sentence for the field, or `locked` when no more tries are allowed. */
export function otpMessage(error: unknown): { message: string; locked: boolean; expired: boolean } {
  if (isSdkError(error)) {
    switch (error.reason) {
      case 'OTP_INVALID': {
        const left = error.details.remainingAttempts;
        if (left !== undefined && left <= 0) return { message: OTP_LOCKED.body, locked: true, expired: false };
        const tail = left === undefined ? 'Please try again.' : left === 1 ? 'You have 1 attempt left.' : `You have ${left} attempts left.`;
        return { message: `That code isn’t right. ${tail}`, locked: false, expired: false };
      }
      case 'OTP_EXPIRED':
        return { message: 'This code has expired. Select “Resend code” to get a new one.', locked: false, expired: true };
      case 'RETRIES_EXCEEDED':
        return { message: OTP_LOCKED.body, locked: true, expired: false };
      case 'NO_PENDING_OTP':
      case 'NOT_AUTHENTICATED':
        return { message: 'This code is no longer valid. Select “Resend code” to get a new one.', locked: false, expired: true };
      default:
        break;
    }
  }
  return { message: 'We couldn’t check the code just now. Please try again.', locked: false, expired: false };
}

export function resendMessage(error: unknown): string {
  if (isSdkError(error) && error.reason === 'RESEND_LIMIT')
    return 'You’ve reached the limit for new codes. Use the last code we sent, or use a different email or mobile number.';
  if (isSdkError(error) && error.reason === 'NO_PENDING_OTP') return 'There’s no code to resend. Go back and enter your email or mobile number again.';
  return 'We couldn’t send a new code just now. Please try again.';
}

export function declineMessage(code: string | undefined): Notice {
  switch (code) {
    case 'INSUFFICIENT_FUNDS':
      return { title: 'Payment declined', body: 'Your card issuer declined the payment because of insufficient funds. Nothing has been charged.' };
    case 'CARD_EXPIRED':
      return { title: 'Payment declined', body: 'Your card issuer reports that this card has expired. Nothing has been charged.' };
    case 'DO_NOT_HONOUR':
      return { title: 'Payment declined', body: 'Your card issuer declined the payment. Contact them if you’re not sure why. Nothing has been charged.' };
    case 'THREE_DS_FAILED':
      return TEXT.threeDsFailed;
    default:
      return { title: 'Payment declined', body: 'The payment was not approved. Nothing has been charged.' };
  }
}

/** A failed 4.3 / 4.10 call → what to tell the customer and whether trying again makes sense. */
export function paymentErrorNotice(error: unknown): { notice: Notice; retry: 'same-card' | 'choose-card' | 'none'; expired?: boolean } {
  if (error instanceof ApiError) {
    if (error.status === 401) return { notice: TEXT.sessionExpired, retry: 'none', expired: true };
    switch (error.code) {
      case 'AUTHORIZATION_UNAVAILABLE':
        return { notice: TEXT.authorizationUnavailable, retry: 'same-card' };
      case 'CHECKOUT_SIGNATURE_INVALID':
      case 'CHECKOUT_EXPIRED':
      case 'CHECKOUT_DECRYPTION_FAILED':
      case 'CHECKOUT_PAYLOAD_INVALID':
      case 'CHECKOUT_RESPONSE_REPLAYED':
      case 'AMOUNT_MISMATCH':
        return { notice: TEXT.checkoutFailed, retry: 'choose-card' };
      case 'CLICK_TO_PAY_NOT_ENABLED':
        return { notice: TEXT.notEnabled, retry: 'none' };
      default:
        return { notice: TEXT.serviceUnavailable, retry: 'same-card' };
    }
  }
  return { notice: TEXT.serviceUnavailable, retry: 'same-card' };
}
