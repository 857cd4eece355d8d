/**
 * The named schemas of docs/openapi.json (`components/schemas`): each is the very zod schema a
 * handler validates with or the tests parse responses with, registered under a name, so that a
 * client generator gets `Payment`, `Order`, `Problem`… instead of anonymous copies, and
 * `z.toJSONSchema` writes a `$ref` wherever one named schema sits inside another (an order's
 * payments are `Payment`s). A schema an operation uses that is not named here is inlined.
 */
import * as z from 'zod';
import * as errors from '../../lib/core/errors.js';
import * as edgeErrors from '../../lib/http/errors.js';
import { ERROR_STATUS } from '../../lib/http/error-status.js';
import { checkoutRequestSchema } from '../../lib/core/checkout/sdk-result.js';
import { paymentMethodsBody } from '../../lib/http/payment-methods-schema.js';
import { operationBody } from '../../lib/http/operation-body.js';
import { createPaymentLinkBody } from '../../functions/create-payment-link/schema.js';
import * as resources from '../../lib/http/resource-schemas.js';
import * as webhookResources from '../../lib/http/webhook-resource-schemas.js';
import { onboardingBody } from '../../functions/put-merchant-config/schema.js';
import { createOrderBody } from '../../functions/create-order/schema.js';
import { directWalletBody } from '../../functions/pay-direct/schema.js';
import { completeThreeDsBody } from '../../functions/complete-3ds/schema.js';
import { webhookConfigBody } from '../../functions/put-webhook-config/schema.js';

/**
 * Every `code` the service answers with, read off the error classes of lib/core/errors.ts (the one
 * place a code is written), ordered by status: a class added there joins the enum by itself.
 */
export function errorCodes(): string[] {
  type ErrorClass = new (detail: string) => errors.DomainError;
  const isErrorClass = (value: unknown): boolean => typeof value === 'function' && value.prototype instanceof errors.DomainError;
  const classes = [...Object.values(errors), ...Object.values(edgeErrors)].filter(isErrorClass) as ErrorClass[];
  const codes = [...new Set(classes.map((ErrorClass) => new ErrorClass('-').code))];
  const unmapped = codes.filter((code) => !(code in ERROR_STATUS));
  if (unmapped.length > 0) throw new Error(`error codes without a status in lib/http/error-status.ts: ${unmapped.join(', ')}`);
  return codes.sort((a, b) => ERROR_STATUS[a]!.status - ERROR_STATUS[b]!.status || a.localeCompare(b));
}

/** Problem details (SPEC §2) with `code` narrowed to the known codes, so clients can switch on it. */
export const problemSchema = resources.problemResource.extend({
  code: z.enum(errorCodes() as [string, ...string[]]).describe('Stable machine-readable error code (SPEC §2); switch on this, not on `title` or `detail`'),
});

/** Name → schema. Request bodies end in `Request`. */
export const NAMED_SCHEMAS = {
  Payment: resources.paymentResource,
  Order: resources.orderResource,
  CreatedOrder: resources.createdOrderResource,
  HostedSession: resources.hostedSessionResource,
  MerchantConfig: resources.merchantConfigResource,
  EncryptionKeys: resources.encryptionKeysResource,
  PaymentMethods: resources.paymentMethodsResource,
  WebhookConfig: webhookResources.webhookConfigResource,
  WebhookConfigWithSecret: webhookResources.webhookConfigPutResource,
  WebhookSecretRotation: webhookResources.webhookSecretRotationResource,
  Event: webhookResources.merchantEventResource,
  EventPage: webhookResources.merchantEventsResource,
  Redelivery: webhookResources.redeliveryResource,
  PaymentLink: resources.paymentLinkResource,
  Problem: problemSchema,
  CreateOrderRequest: createOrderBody,
  ClickToPayRequest: checkoutRequestSchema,
  DirectWalletRequest: directWalletBody,
  ThreeDsRequest: completeThreeDsBody,
  OperationRequest: operationBody,
  MerchantOnboardingRequest: onboardingBody,
  PaymentMethodsRequest: paymentMethodsBody,
  WebhookConfigRequest: webhookConfigBody,
  CreatePaymentLinkRequest: createPaymentLinkBody,
} satisfies Record<string, z.ZodType>;

export type SchemaName = keyof typeof NAMED_SCHEMAS;

const registry = z.registry<{ id: string }>();
for (const [id, schema] of Object.entries(NAMED_SCHEMAS)) registry.add(schema, { id });

/** The component name of a schema, if it has one. */
export const schemaName = (schema: z.ZodType): string | undefined => registry.get(schema)?.id;

export const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

/** `components/schemas`, with `$ref`s between them. */
export function componentSchemas(): Record<string, unknown> {
  const { schemas } = z.toJSONSchema(registry, { io: 'input', unrepresentable: 'any', uri: (id) => `#/components/schemas/${id}` });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      const { $schema: _schema, $id: _id, ...rest } = schema as Record<string, unknown>;
      return [id, rest];
    }),
  );
}

/** A schema as an operation uses it: a `$ref` when it is named, else inline (name it above to share it). */
export function schemaOrRef(schema: z.ZodType): Record<string, unknown> {
  const id = schemaName(schema);
  if (id) return ref(id);
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}
