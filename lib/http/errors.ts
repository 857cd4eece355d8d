import { DomainError, type DomainErrorOptions } from '../core/errors.js';

/** Errors of the transport itself (the route, the body's size and media type): only the edge raises them. */
export class MethodNotAllowedError extends DomainError {
  override readonly name: string = 'MethodNotAllowedError';
  readonly code = 'METHOD_NOT_ALLOWED';
}

export class PayloadTooLargeError extends DomainError {
  override readonly name: string = 'PayloadTooLargeError';
  readonly code = 'PAYLOAD_TOO_LARGE';
}

export class UnsupportedMediaTypeError extends DomainError {
  override readonly name: string = 'UnsupportedMediaTypeError';
  readonly code = 'UNSUPPORTED_MEDIA_TYPE';
  constructor(detail = 'The request body must be application/json.', options?: DomainErrorOptions) {
    super(detail, options);
  }
}
