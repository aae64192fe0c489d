// lib/webhooks: the transactional outbox, endpoint registration and signed delivery of every
// subgraph. Domain-free: the subgraph brings its owner key, event names, payloads and error codes.
//
// Adding webhooks to a subgraph (catalog shown; AI is the same):
//
//   1. Tables: add `...webhookEntities` to the definition's `entities`, then
//      `npm run migration:create -- catalog webhooks` (webhook_endpoints, webhook_deliveries,
//      webhook_attempts in the subgraph's schema).
//   2. Runtime: in the subgraph's `workers`, build one WebhookRuntime and start it:
//        const webhooks = new WebhookRuntime({ schema: 'catalog', service: 'catalog', secrets: masterSecretBox(cfg, log),
//          allowPrivate: cfg.allowPrivateNetworkFetch, log, sql: toSql(orm.em.fork()) ... or toSql(pool),
//          maxAttempts: cfg.webhookMaxAttempts, retryBaseMs: cfg.webhookRetryBaseMs, pollMs: cfg.webhookPollMs });
//        webhooks.start();   // stop() it when the worker stops
//   3. Endpoints (POST/GET/DELETE /v1/webhooks), owner = ownerOfApp(ctx.tenant.appId, ctx.tenant.environment):
//        const rules = { events: PRODUCT_EVENTS, urlError: 'VALIDATION_FAILED', notFound: 'NOT_FOUND' } satisfies EndpointRules;
//        await registerEndpoint({ em: ctx.em, secrets, allowPrivate }, owner, { url, events, secret }, rules);
//        await listEndpoints(ctx.em, owner);  await getEndpoint(ctx.em, owner, id, rules);
//        await deactivateEndpoint(ctx.em, owner, id, rules);
//        await listDeliveries(ctx.em, { owner, endpointId: id, limit: 20 });   // the delivery log
//   4. Events, in the transaction of the change (an EntityManager inside em.transactional, or a pg client):
//        await ctx.em.transactional(async (em) => {
//          …the change…
//          await webhooks.emit(em, { owner, event: 'product.created', payload: { event: 'product.created', timestamp, data } });
//        });
//        webhooks.kick();   // after commit: send now instead of at the next poll
//      Targets that are not registered endpoints (a URL stored elsewhere) use webhooks.enqueue(tx, {...}).
//
// Delivery: POST with X-Webhook-Id, X-Webhook-Delivery, X-Webhook-Event, X-Webhook-Attempt and
// X-Webhook-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")> (signature.ts), through the
// URL guard (lib/net-guard.ts); retried with exponential backoff, dead-lettered (status failed) after
// max attempts. Secrets, and target URLs given with a delivery, are sealed with MASTER_KEY.
// docs/kernel.md (## Webhooks) is the reference.
export { webhookEntities, WebhookEndpointEntity, WebhookDeliveryEntity, WebhookAttemptEntity, DELIVERY_STATUSES, ownerOfApp, type DeliveryStatus } from './webhook.entities.js';
export { checkWebhookUrl, checkEvents, registerEndpoint, listEndpoints, getEndpoint, deactivateEndpoint, type EndpointRules, type EndpointDeps, type EndpointInput } from './endpoints.js';
export { checkEventPattern, eventMatches } from './events.js';
export { emitToEndpoints, enqueueDelivery, type EndpointEvent, type TargetDelivery, type OutboxConfig } from './outbox.js';
export { listDeliveries, type DeliveryLogEntry, type DeliveryLogQuery } from './log.js';
export { backoffMs, claimDue, send, recordAttempt, type SenderConfig, type ClaimedDelivery, type AttemptResult } from './delivery.js';
export { WebhookRuntime, type WebhookRuntimeOptions } from './runtime.js';
export { signWebhook, verifyWebhook, SIGNATURE_HEADER, DEFAULT_TOLERANCE_SEC, type WebhookCheck } from './signature.js';
export { toSql, type Sql, type SqlSource } from './sql.js';
