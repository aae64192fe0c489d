// The delivery log every service's webhooks answer (GET …/webhooks/:id/deliveries?limit=): one
// route shape over the kernel's log (lib/webhooks/log.ts), each delivery a `webhook_deliveries`
// resource, newest first, with its attempts.
import { resource } from '../jsonapi.js';
import { intParam } from '../query.js';
import type { Route } from '../types.js';

export interface DeliveriesRoute {
  base: Pick<Route, 'service' | 'auth'>;
  /** the route's path, its webhook id in `param` */
  path: string;
  param: string;
  /** the operation, which reads `<field>(id) { deliveries(limit) }` */
  operation: string;
  field: string;
  scope?: string;
  summary: string;
}

export function webhookDeliveriesRoute(o: DeliveriesRoute): Route {
  return {
    ...o.base,
    method: 'GET',
    path: o.path,
    operation: o.operation,
    ...(o.scope ? { scope: o.scope } : {}),
    summary: o.summary,
    query: [{ name: 'limit', type: 'integer', description: 'default 20, at most 100' }],
    variables: (r) => ({ id: r.params[o.param], limit: intParam(r.query, 'limit', { default: 20, min: 1, max: 100 }) }),
    result: (d) => ({ data: d[o.field].deliveries.map((x: Record<string, unknown>) => resource('webhook_deliveries', x)) }),
    status: 200,
    responseType: 'webhook_deliveries',
    list: true,
  };
}
