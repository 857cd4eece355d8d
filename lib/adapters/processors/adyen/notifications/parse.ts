import * as z from 'zod';
import { hmacKeyBytes, signatureMatches } from './hmac.js';

/**
 * Adyen standard notifications (webhooks): parsing and HMAC verification, pure. A request is
 * accepted only when every item it carries is signed with one of the merchant's keys (current
 * and, during a rotation, previous): one forged item and nothing in the request is applied
 * (SPEC 4.16: 401, nothing changes). Parsing is lenient about what Adyen may add (event codes,
 * additionalData members) and strict about what the service relies on.
 */
const item = z.object({
  pspReference: z.string().min(1),
  originalReference: z.string().optional(),
  merchantAccountCode: z.string().min(1),
  merchantReference: z.string().min(1),
  amount: z.object({ value: z.int(), currency: z.string().length(3) }),
  eventCode: z.string().min(1),
  eventDate: z.string(),
  success: z.enum(['true', 'false']),
  additionalData: z.record(z.string(), z.unknown()).optional(),
});

const body = z.object({
  live: z.enum(['true', 'false']),
  notificationItems: z.array(z.object({ NotificationRequestItem: item })).min(1),
});

export type NotificationItem = z.infer<typeof item>;

export interface VerifiedNotification {
  live: boolean;
  items: NotificationItem[];
}

/** The request is not a standard notification (400). */
export class MalformedNotificationError extends Error {
  override readonly name: string = 'MalformedNotificationError';
}

/** An item's HMAC does not verify with any of the merchant's keys (401; nothing is applied). */
export class ForgedNotificationError extends Error {
  override readonly name: string = 'ForgedNotificationError';
}

export function parseNotification(json: unknown): VerifiedNotification {
  const parsed = body.safeParse(json);
  if (!parsed.success) throw new MalformedNotificationError('not an Adyen standard notification', { cause: z.prettifyError(parsed.error) });
  return { live: parsed.data.live === 'true', items: parsed.data.notificationItems.map((wrapper) => wrapper.NotificationRequestItem) };
}

/**
 * Parses and verifies a notification request. `hexKeys`: the merchant's HMAC keys, current first.
 * `merchantAccount`: the account the keys belong to — an item for another account is refused
 * like a forged one, so a key shared by mistake cannot move another merchant's payments.
 */
export function verifyNotification(json: unknown, hexKeys: readonly string[], merchantAccount: string): VerifiedNotification {
  if (hexKeys.length === 0) throw new RangeError('no HMAC key configured');
  const notification = parseNotification(json);
  verifyItems(notification.items, hexKeys, merchantAccount);
  return notification;
}

/** Every item signed with one of the keys, and for this account; ForgedNotificationError otherwise. */
export function verifyItems(items: readonly NotificationItem[], hexKeys: readonly string[], merchantAccount: string): void {
  if (hexKeys.length === 0) throw new RangeError('no HMAC key configured');
  const keys = hexKeys.map(hmacKeyBytes);
  for (const entry of items) {
    const signature = entry.additionalData?.hmacSignature;
    const signed = typeof signature === 'string' && keys.some((key) => signatureMatches(entry, signature, key));
    if (!signed || entry.merchantAccountCode !== merchantAccount) throw new ForgedNotificationError('a notification item failed verification');
  }
}
