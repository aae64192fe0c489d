// lib/webhooks: the transactional outbox, endpoint registration and signed delivery of every
// subgraph. Domain-free: the subgraph brings its owner key, event names, payloads and error codes.
//
// Adding webhooks to a subgraph (catalog shown; AI is the same):
//
//   1. Tables: add `...webhookEntities` (and lib/jobs' JobEntity) to the definition's `entities`, then
//      `npm run migration:create -- catalog webhooks` (webhook_endpoints, webhook_deliveries,
//      webhook_attempts in the subgraph's schema, next to its jobs table).
//   2. Runtime: build one WebhookRuntime in the subgraph's runtime(deps) hook and run its sender from
//      the workers(deps) hook:
//        const webhooks = new WebhookRuntime({ schema: 'catalog', service: 'catalog', secrets: masterSecretBox(deps.cfg, log),
//          allowPrivate: deps.cfg.allowPrivateNetworkFetch, log, sql: toSql(pool or deps.orm.em.fork()),
//          dbUrl: deps.orm.config.get('clientUrl') as string, maxAttempts: deps.cfg.webhookMaxAttempts,
//          retryBaseMs: deps.cfg.webhookRetryBaseMs, pollMs: deps.cfg.webhookPollMs });
//        await webhooks.start();   // its own job worker for kind 'webhooks.deliver'; stop() it with the workers
//      (or list `webhooks.kind` among the kinds of the subgraph's own job worker instead of start()).
//   3. Endpoints (POST/GET/DELETE /v1/webhooks) of the caller's app partition (app-endpoints.ts; the
//      owner is ownerOfApp(app, environment)):
//        const endpoints = appEndpoints({ events: PRODUCT_EVENTS, urlError: 'VALIDATION_FAILED', notFound: 'NOT_FOUND' });
//        await endpoints.register(ctx, { secrets, allowPrivate }, { url, events, secret });
//        await endpoints.list(ctx);  await endpoints.get(ctx, id);  await endpoints.deactivate(ctx, id);
//        await endpoints.deliveries(ctx, id, limit);   // the delivery log
//      Another owner: registerEndpoint, listEndpoints, getEndpoint, deactivateEndpoint, listDeliveries.
//   4. Events, in the transaction of the change (an EntityManager inside em.transactional, or a pg
//      client inside begin/commit): the delivery rows and their jobs commit with the change.
//        await ctx.em.transactional(async (em) => {
//          …the change…
//          await webhooks.emit(em, { owner, event: 'product.created', payload: { event: 'product.created', timestamp, data } });
//        });
//      Targets that are not registered endpoints (a URL stored elsewhere) use webhooks.enqueue(tx, {...}).
//
// Delivery: one job of the kernel queue per delivery (kind webhooks.deliver): POST with X-Webhook-Id,
// X-Webhook-Delivery, X-Webhook-Event, X-Webhook-Attempt and X-Webhook-Signature: t=<unix>,v1=<hex
// HMAC-SHA256(secret, "<t>.<body>")> (signature.ts), through the URL guard (lib/net-guard.ts); the
// queue retries with exponential backoff and dead-letters after max attempts (delivery status
// failed). Secrets, and target URLs given with a delivery, are sealed with MASTER_KEY.
// docs/kernel.md (## Webhooks) is the reference.
export { webhookEntities, WebhookEndpointEntity, WebhookDeliveryEntity, WebhookAttemptEntity, DELIVERY_STATUSES, ownerOfApp, type DeliveryStatus } from './webhook.entities.js';
export { checkWebhookUrl, checkEvents, registerEndpoint, listEndpoints, getEndpoint, deactivateEndpoint, type EndpointRules, type EndpointDeps, type EndpointInput } from './endpoints.js';
export { checkEventPattern, eventMatches } from './events.js';
export { emitToEndpoints, enqueueDelivery, DELIVERY_JOB, type EndpointEvent, type TargetDelivery, type OutboxConfig, type OutboxTx } from './outbox.js';
export { appEndpoints, type AppEndpoints } from './app-endpoints.js';
export { deliveryView, endpointLogLimit, listDeliveries, type DeliveryLogEntry, type DeliveryLogQuery, type DeliveryView } from './log.js';
export { startAttempt, send, recordAttempt, markDead, type SenderConfig, type ClaimedDelivery, type AttemptResult } from './delivery.js';
export { deliveryJobKind, type DeliveryJobConfig } from './delivery.job.js';
export { WebhookRuntime, type WebhookRuntimeOptions } from './runtime.js';
export { signWebhook, verifyWebhook, SIGNATURE_HEADER, DEFAULT_TOLERANCE_SEC, type WebhookCheck } from './signature.js';
export { toSql, type Sql, type SqlSource } from './sql.js';
