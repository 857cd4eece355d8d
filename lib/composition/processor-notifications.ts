import { AdyenNotificationSource } from '../adapters/processors/adyen/notifications/source.js';
import { adyenHmacKeys } from '../adapters/processors/adyen/config.js';
import { PaymentOperationsRepository } from '../adapters/dynamodb/payment-operations-repository.js';
import { PaymentRepository } from '../adapters/dynamodb/payment-repository.js';
import type { ProcessorReportDeps } from '../core/payments/processor-reports.js';
import type { ProcessorReportSource } from '../core/ports/processor-inbox.js';
import { toPaymentResource } from '../http/resources/payment-resource.js';
import { documentClient } from './aws.js';
import { paymentConfig } from './config/payment-config.js';
import { serviceConfig } from './config/service-config.js';
import { configRepository, orderRepository } from './core.js';
import { processorInbox } from './processor-inbox.js';
import { secretSource } from './secrets.js';

/**
 * POST /processors/adyen/notifications (SPEC 4.16): Adyen's standard notifications, each item
 * verified with the HMAC key of the merchant whose Adyen merchant account it names (the key read
 * by its ARN, cached five minutes), then stored once in that merchant's inbox and applied.
 */
const adyenSource = new AdyenNotificationSource({
  merchantFor: async (account) => {
    const merchantRef = await configRepository.processorAccountOwner('adyen', account);
    const merchant = merchantRef ? await configRepository.getMerchant(merchantRef) : undefined;
    return merchant?.processor?.name === 'adyen' && merchant.processor.account === account && merchant.processor.notificationHmacKeyArn ? merchant : undefined;
  },
  hmacKeysOf: async (merchant) => adyenHmacKeys(await secretSource.read(merchant.processor!.notificationHmacKeyArn!)),
});

export const adyenNotificationDeps: ProcessorReportDeps & { source: ProcessorReportSource } = {
  source: adyenSource,
  inbox: processorInbox,
  orders: orderRepository,
  payments: new PaymentRepository(documentClient, serviceConfig.ORDERS_TABLE),
  operations: new PaymentOperationsRepository(documentClient, serviceConfig.ORDERS_TABLE),
  settings: { leaseMs: paymentConfig.PAYMENT_LEASE_SECONDS * 1000 },
  now: Date.now,
  represent: toPaymentResource,
};
