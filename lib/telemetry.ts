// OpenTelemetry traces, off unless an OTLP endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT; lib/config.ts). On, each component (rest-bridge, gateway and
// each subgraph) exports its spans over OTLP/HTTP under its own service.name, and the W3C
// `traceparent` header carries the trace from the REST bridge through the gateway into every
// subgraph fetch: bridge server span → gateway server span → one client span per subgraph fetch →
// the subgraph's server span. Off, nothing is loaded and a request pays one `undefined` check.
// docs/operations.md#traces.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { observeRequest, routeOf } from './metrics.js';

export interface Tracing {
  /** Run `fn` inside a server span continuing the request's `traceparent`; the span ends with the response. */
  server<T>(req: IncomingMessage, res: ServerResponse, name: string, fn: () => T): T;
  /** Run `fn` inside a client span (an outgoing call), ending when its promise settles. */
  client<T>(name: string, attributes: Record<string, string | number>, fn: () => Promise<T>): Promise<T>;
  /** Add the current span's `traceparent` (and `tracestate`) to outgoing request headers. */
  inject(headers: Record<string, string>): void;
  /** Export what is buffered and stop. */
  shutdown(): Promise<void>;
}

type Otel = Awaited<ReturnType<typeof load>>;
let loaded: Promise<Otel> | undefined;

/** The SDK, loaded once per process on first use: the context manager and propagator are process-wide. */
async function load() {
  const [api, hooks, core, sdk, resources, exporter] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/core'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/exporter-trace-otlp-http'),
  ]);
  api.context.setGlobalContextManager(new hooks.AsyncLocalStorageContextManager().enable());
  api.propagation.setGlobalPropagator(new core.W3CTraceContextPropagator());
  return { api, sdk, resources, exporter };
}

/** Header values as the propagator reads them (first of repeated headers). */
const headerGetter = {
  keys: (carrier: IncomingMessage['headers']) => Object.keys(carrier),
  get: (carrier: IncomingMessage['headers'], key: string) => carrier[key],
};

/**
 * Tracing for one component, or undefined when no endpoint is configured. Spans are batched and
 * exported every `OTEL_BSP_SCHEDULE_DELAY` ms (default 1000).
 */
export async function startTracing(cfg: Pick<Config, 'otlpTracesUrl'>, component: string, log: Logger): Promise<Tracing | undefined> {
  if (!cfg.otlpTracesUrl) return undefined;
  loaded ??= load();
  const { api, sdk, resources, exporter } = await loaded;
  const delay = Number(process.env.OTEL_BSP_SCHEDULE_DELAY) || 1000;
  const provider = new sdk.TracerProvider({
    resource: resources.resourceFromAttributes({ 'service.name': component }),
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter: new exporter.OTLPTraceExporter({ url: cfg.otlpTracesUrl }), scheduledDelayMillis: delay })],
  });
  const tracer = provider.getTracer(component);
  const { context, propagation, trace, SpanKind, SpanStatusCode, ROOT_CONTEXT } = api;
  log.info('tracing on', { component, endpoint: cfg.otlpTracesUrl });
  return {
    server(req, res, name, fn) {
      const parent = propagation.extract(ROOT_CONTEXT, req.headers, headerGetter);
      const span = tracer.startSpan(name, { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method ?? 'GET', 'url.path': (req.url ?? '/').split('?')[0] } }, parent);
      res.once('close', () => {
        // named after what the request turned out to be (a REST route, a GraphQL operation; lib/metrics labelRoute)
        const route = routeOf(req);
        if (route) span.updateName(`${name} ${route}`);
        span.setAttribute('http.response.status_code', res.statusCode);
        if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        const requestId = res.getHeader('x-request-id');
        if (typeof requestId === 'string') span.setAttribute('request.id', requestId);
        span.end();
      });
      return context.with(trace.setSpan(parent, span), fn);
    },
    async client(name, attributes, fn) {
      const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes });
      try {
        return await context.with(trace.setSpan(context.active(), span), fn);
      } catch (e) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: (e as Error).message });
        throw e;
      } finally {
        span.end();
      }
    },
    inject(headers) {
      propagation.inject(context.active(), headers);
    },
    shutdown: () => provider.shutdown(),
  };
}

/**
 * Every request of a component's HTTP server goes through here: counted and timed (lib/metrics.ts),
 * and traced when tracing is on.
 */
export function instrument<T>(component: string, tracing: Tracing | undefined, req: IncomingMessage, res: ServerResponse, fn: () => T): T {
  observeRequest(component, req, res);
  return tracing ? tracing.server(req, res, `${component} ${req.method ?? 'GET'}`, fn) : fn();
}
