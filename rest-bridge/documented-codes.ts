// Conditions a service's error table names a code for, whichever layer notices them first. A value
// of the wrong type is refused by GraphQL input coercion (at the gateway or the subgraph) before the
// service's own checks run; without this table it would read as the generic VALIDATION_FAILED where
// the document promises, say, INVALID_PRICE for any price that is not well formed. One table, applied
// once to every attribute error of every route (errors.ts, fromGraphQLError).
import type { ErrorCode } from '../lib/errors.js';
import type { Service } from './types.js';

interface DocumentedCondition {
  service: Service;
  /** the REST parameter the refusal names (`price.amount`, `tiers[0].price.amount`) */
  parameter: RegExp;
  code: ErrorCode;
}

/**
 * A money value at any depth, or one of its members: `price`, `tiers[0].price.amount`,
 * `prices[2].currency`; not a sibling field of it (`prices[0].customer_id`).
 */
const money = (names: string, members: string) => new RegExp(`(^|\\.)(${names})(\\[\\d+\\])?(\\.(${members}))?$`);

const CONDITIONS: readonly DocumentedCondition[] = [
  // document 3: INVALID_PRICE "price format invalid": any money value (product price, compare_at,
  // cost, a variant's price modifier, per-currency prices, tiers, customer and scheduled prices)
  { service: 'products', parameter: money('price|prices|compare_at|cost|price_modifier', 'amount|currency|compare_at'), code: 'INVALID_PRICE' },
  // document 2: invalid-uuid-format "unique_id is not a valid UUID"; invalid_language "language code not supported"
  { service: 'ai', parameter: /^unique_id$/, code: 'invalid-uuid-format' },
  { service: 'ai', parameter: /^(language|source_language|target_language)$/, code: 'invalid_language' },
  // document 3 (search): invalid_filter_syntax "filter syntax invalid"
  { service: 'search', parameter: /^filter$/, code: 'invalid_filter_syntax' },
];

/** The documented code for a refused `parameter` of a `service` route, if its error table names one. */
export function documentedCode(service: Service, parameter: string | undefined): ErrorCode | undefined {
  if (!parameter) return undefined;
  return CONDITIONS.find((x) => x.service === service && x.parameter.test(parameter))?.code;
}
