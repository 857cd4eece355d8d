/**
 * Dev-time check (not run in CI: the published files are not in the repository, and must not be
 * committed): compares the committed transcriptions of the processors' published schemas with the
 * files themselves, fetched by the developer.
 *
 *   npm run processors:check-schemas -- adyen          <path>/json/CheckoutService-v71.json
 *   npm run processors:check-schemas -- adyen-webhooks <path>/json/Webhooks-v1.json
 *   npm run processors:check-schemas -- checkout-com   <path>/nas_spec
 *
 * (Adyen/adyen-openapi and checkout/checkout-api-reference on GitHub; the transcriptions' headers
 * name the commits.) Exit 0 and "matches" when they agree; otherwise every difference, exit 1.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { load } from 'js-yaml';
import { adyenCheckoutV71, adyenOperations } from '../../lib/adapters/processors/adyen/api-schema.js';
import { adyenWebhooksV1 } from '../../lib/adapters/processors/adyen/notifications/webhook-schema.js';
import { checkoutComDocumentedOnly, checkoutComNas } from '../../lib/adapters/processors/checkout-com/api-schema.js';
import type { Transcription } from '../../lib/adapters/processors/schema/dsl.js';
import { compareTranscription, refName, type SpecNode } from './compare-transcription.js';

const [which, path] = process.argv.slice(2);
if (!which || !path) {
  process.stderr.write('usage: check-schema-transcription (adyen | adyen-webhooks | checkout-com) <published file or nas_spec folder>\n');
  process.exit(2);
}

const problems =
  which === 'checkout-com'
    ? checkCheckoutCom(path)
    : which === 'adyen'
      ? checkAdyen(path)
      : which === 'adyen-webhooks'
        ? checkAdyenWebhooks(path)
        : [`unknown processor ${which}`];
if (problems.length > 0) {
  process.stdout.write(`${problems.length} difference(s):\n${problems.map((problem) => `  ${problem}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(`${which}: the transcription matches ${path}\n`);

function names(transcription: Transcription, skip: readonly string[] = []): string[] {
  return Object.keys(transcription.components).filter((name) => !skip.includes(name));
}

function checkAdyen(file: string): string[] {
  const document = JSON.parse(readFileSync(file, 'utf8'));
  const problems = document.info?.version === '71' ? [] : [`info.version is ${document.info?.version}, transcribed 71`];
  for (const [name, operation] of Object.entries(adyenOperations)) {
    const published = document.paths?.[operation.path]?.[operation.method];
    if (!published) {
      problems.push(`${name}: ${operation.method.toUpperCase()} ${operation.path} not published`);
      continue;
    }
    const request = published.requestBody?.content?.['application/json']?.schema?.$ref;
    if (!request || refName(request) !== operation.request) problems.push(`${name}: request ${request}, transcribed ${operation.request}`);
    const answer = published.responses?.[String(operation.answer.status)]?.content?.['application/json']?.schema?.$ref;
    if (!answer || refName(answer) !== operation.answer.schema)
      problems.push(`${name}: ${operation.answer.status} answer ${answer}, transcribed ${operation.answer.schema}`);
    if (!(published.parameters ?? []).some((parameter: SpecNode) => String(parameter.$ref ?? parameter.name).endsWith('Idempotency-Key')))
      problems.push(`${name}: no Idempotency-Key parameter`);
  }
  return [...problems, ...compareTranscription(adyenCheckoutV71, document.components.schemas, names(adyenCheckoutV71))];
}

function checkAdyenWebhooks(file: string): string[] {
  const document = JSON.parse(readFileSync(file, 'utf8'));
  const capture = (document.webhooks ?? document.paths)?.['/CAPTURE']?.post?.requestBody?.content?.['application/json']?.schema?.$ref;
  const problems = capture && refName(capture) === 'CaptureNotificationRequest' ? [] : [`/CAPTURE body is ${capture}, transcribed CaptureNotificationRequest`];
  return [...problems, ...compareTranscription(adyenWebhooksV1, document.components.schemas, names(adyenWebhooksV1))];
}

function checkCheckoutCom(folder: string): string[] {
  const schemas: Record<string, SpecNode> = {};
  for (const file of yamlFiles(join(folder, 'components', 'schemas'))) schemas[basename(file, '.yaml')] = load(readFileSync(file, 'utf8')) as SpecNode;
  const operation = (file: string, method: string) => (load(readFileSync(join(folder, 'paths', file), 'utf8')) as SpecNode)[method] as SpecNode;
  const problems: string[] = [];
  const notes: string[] = [];
  const expectRef = (where: string, ref: unknown, name: string) => {
    if (typeof ref !== 'string' || refName(ref) !== name) problems.push(`${where}: ${String(ref)}, transcribed ${name}`);
  };
  const payments = operation('payments.yaml', 'post');
  const oneOf = (payments.requestBody?.content?.['application/json']?.schema?.oneOf ?? []) as SpecNode[];
  if (!oneOf.some((member) => refName(String(member.$ref)) === 'PaymentRequest'))
    problems.push('POST /payments: PaymentRequest is not among the request bodies');
  expectRef('POST /payments 201', payments.responses?.['201']?.content?.['application/json']?.schema?.$ref, 'PaymentResponse');
  expectRef('POST /payments 202', payments.responses?.['202']?.content?.['application/json']?.schema?.$ref, 'PaymentAcceptedResponse');
  for (const [file, request, answer] of [
    ['payments@{id}@captures.yaml', 'CaptureRequest', 'CaptureAcceptedResponse'],
    ['payments@{id}@voids.yaml', 'VoidRequest', 'VoidAcceptedResponse'],
    ['payments@{id}@refunds.yaml', 'RefundRequest', 'RefundAcceptedResponse'],
  ] as const) {
    const post = operation(file, 'post');
    expectRef(`${file} request`, post.requestBody?.content?.['application/json']?.schema?.$ref, request);
    expectRef(`${file} 202`, post.responses?.['202']?.content?.['application/json']?.schema?.$ref, answer);
    // The 2021 file declares the header on POST /payments only; Checkout.com's idempotency page
    // (checkout.com/docs/payments/manage-payments/idempotency) lists captures, voids and refunds too.
    if (!(post.parameters ?? []).some((parameter: SpecNode) => String(parameter.$ref).endsWith('ckoIdempotencyKey')))
      notes.push(`${file}: Cko-Idempotency-Key not declared (documented on the idempotency page)`);
  }
  if (!(payments.parameters ?? []).some((parameter: SpecNode) => String(parameter.$ref).endsWith('ckoIdempotencyKey')))
    problems.push('POST /payments: no Cko-Idempotency-Key parameter');
  expectRef(
    'GET actions 200',
    operation('payments@{id}@actions.yaml', 'get').responses?.['200']?.content?.['application/json']?.schema?.$ref,
    'PaymentActionsResponse',
  );
  for (const note of notes) process.stdout.write(`note: ${note}\n`);
  return [...problems, ...compareTranscription(checkoutComNas, schemas, names(checkoutComNas, checkoutComDocumentedOnly))];
}

function yamlFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((entry) => {
    const full = join(folder, entry);
    return statSync(full).isDirectory() ? yamlFiles(full) : entry.endsWith('.yaml') ? [full] : [];
  });
}
