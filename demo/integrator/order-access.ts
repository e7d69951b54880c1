// Who may see an order (issue 31 item 7, "a demo that teaches the safe way"): an order's details (its owner, items,
// payment, address or parcel) go only to its verified customer, whom the service names in `x-service-user-id` and
// `x-service-user-email` after checking the store's identity token, or to a shopper who gives the order's email
// address with its number, as a guest's confirmation email allows. A number alone proves nothing: numbers are short,
// sequential and printed on parcels.
//
// No oracle: an unknown number and a known number with the wrong email get the same answer, so trying numbers or
// addresses teaches nothing. Asked with no proof at all, every number gets the answer that says what is needed.
import { type DemoOrder, findOrder } from './orders';

export interface OrderProof {
  /** `x-service-user-id`: the verified customer, when the store signed one in. */
  userId?: string;
  /** `x-service-user-email`: their verified email. */
  userEmail?: string;
  /** The `email` parameter: what a guest typed. */
  email?: string;
}

export type OrderAccess =
  | { ok: true; order: DemoOrder }
  /** `needs-proof`: neither a signed-in customer nor an email; `not-found`: no order of theirs has that number. */
  | { ok: false; why: 'needs-proof' | 'not-found' };

/** An email address as shoppers type it: case and surrounding spaces do not matter. */
const normal = (email: string | undefined) => email?.trim().toLowerCase() || undefined;

/**
 * Whether the shopper behind a call may see order `orderId`.
 * @example
 * orderAccess('1001', {}); // → { ok: false, why: 'needs-proof' }
 * orderAccess('1001', { email: 'Ada@Example.com' }).ok; // → true
 * orderAccess('1001', { email: 'eve@example.com' }); // → { ok: false, why: 'not-found' }, as for orderAccess('9999', …)
 */
export function orderAccess(orderId: string, proof: OrderProof): OrderAccess {
  const userId = proof.userId?.trim() || undefined;
  const userEmail = normal(proof.userEmail);
  const email = normal(proof.email);
  if (!userId && !userEmail && !email) return { ok: false, why: 'needs-proof' };
  const order = findOrder(orderId);
  const owns =
    order !== undefined &&
    ((userId !== undefined && userId === order.customerId) ||
      (userEmail !== undefined && userEmail === order.email) ||
      (email !== undefined && email === order.email));
  return owns ? { ok: true, order } : { ok: false, why: 'not-found' };
}
