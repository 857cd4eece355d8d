import * as z from 'zod';
import { LINK_REF } from '../core/domain/payment-link.js';
import { ref } from './params.js';

/** A link reference has one exact shape (`pl_` + 22 base64url characters): anything else is 400 before any lookup. */
export const linkRef = z.string().regex(LINK_REF, 'Expected a payment link reference');
export const paymentLinkParams = z.object({ outletId: ref, linkRef });
