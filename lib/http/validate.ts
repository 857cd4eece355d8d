import type { MiddlewareObj } from '@middy/core';
import type * as z from 'zod';
import { InvalidRequestError, type FieldIssue } from '../core/errors.js';
import { parseJsonBody } from './json-body.js';
import type { ApiContext, ApiEvent, ApiResponse, RouteSchemas } from './types.js';

/** Validates path, query and body with the route's zod schemas; any issue is a 400 listing them. */
export function validateInput<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
  schemas: RouteSchemas<P, Q, B>,
): MiddlewareObj<ApiEvent, ApiResponse, Error, ApiContext> {
  return {
    before: (request) => {
      const { event, context } = request;
      const issues: FieldIssue[] = [];
      const check = (schema: z.ZodType | undefined, value: unknown, prefix: string): unknown => {
        if (!schema) return value;
        const result = schema.safeParse(value);
        if (result.success) return result.data;
        for (const issue of result.error.issues) {
          issues.push({ path: [prefix, ...issue.path.map(String)].filter(Boolean).join('.'), message: issue.message });
        }
        return undefined;
      };
      context.api.params = check(schemas.params, event.pathParameters ?? {}, 'path');
      context.api.query = check(schemas.query, event.queryStringParameters ?? {}, 'query');
      const body = parseJsonBody(context.api.rawBody);
      if (schemas.body && body === undefined && schemas.bodyOptional) {
        context.api.body = undefined;
      } else if (schemas.body) {
        if (body === undefined) throw new InvalidRequestError('A JSON request body is required.');
        context.api.body = check(schemas.body, body, '');
      } else if (body !== undefined && !isEmptyObject(body)) {
        issues.push({ path: '', message: 'This endpoint takes no request body' });
      }
      if (issues.length > 0) {
        throw new InvalidRequestError('The request is invalid.', { errors: issues.slice(0, 20) });
      }
    },
  };
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}
