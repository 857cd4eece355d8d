import { InvalidRequestError, UnauthenticatedError } from '../../../../core/errors.js';
import type { MerchantConfig } from '../../../../core/domain/merchant.js';
import type { ProcessorReportSource, VerifiedReports } from '../../../../core/ports/processor-inbox.js';
import { ForgedNotificationError, MalformedNotificationError, parseNotification, verifyItems, type NotificationItem } from './parse.js';
import { reportOf } from './reports.js';

export interface AdyenNotificationSourceOptions {
  /** The merchant whose processor is Adyen with this merchant account, if any. */
  merchantFor(merchantAccount: string): Promise<MerchantConfig | undefined>;
  /** The merchant's notification HMAC keys (hex), current first. */
  hmacKeysOf(merchant: MerchantConfig): Promise<readonly string[]>;
}

/**
 * Adyen's standard notifications (POST /processors/adyen/notifications, SPEC 4.16) as verified
 * processor reports: every item is checked with the HMAC key of the merchant its
 * merchantAccountCode belongs to, before anything is stored. One item that fails — an unknown
 * account, a wrong signature — and the whole delivery is refused (401): nothing changes.
 */
export class AdyenNotificationSource implements ProcessorReportSource {
  constructor(private readonly options: AdyenNotificationSourceOptions) {}

  async read(body: unknown): Promise<VerifiedReports[]> {
    let notification: ReturnType<typeof parseNotification>;
    try {
      notification = parseNotification(body);
    } catch (error) {
      if (error instanceof MalformedNotificationError) throw new InvalidRequestError('The body is not an Adyen standard notification.', { cause: error });
      throw error;
    }
    const byAccount = new Map<string, NotificationItem[]>();
    for (const item of notification.items) byAccount.set(item.merchantAccountCode, [...(byAccount.get(item.merchantAccountCode) ?? []), item]);
    const verified: VerifiedReports[] = [];
    for (const [account, items] of byAccount) {
      const merchant = await this.options.merchantFor(account);
      if (!merchant) throw forged(new ForgedNotificationError('no merchant has this Adyen merchant account'));
      try {
        verifyItems(items, await this.options.hmacKeysOf(merchant), account);
      } catch (error) {
        if (error instanceof ForgedNotificationError) throw forged(error);
        throw error;
      }
      verified.push({ merchantRef: merchant.merchantRef, reports: items.map(reportOf) });
    }
    return verified;
  }
}

const forged = (cause: Error) => new UnauthenticatedError('The notification could not be verified.', { cause });
