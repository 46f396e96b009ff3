/**
 * OpenTelemetry tracing, off unless OTEL_EXPORTER_OTLP_ENDPOINT is set: each process (console,
 * worker, `npm start`'s parent) calls `startTracing` once, and spans go to
 * `<endpoint>/v1/traces` over OTLP/HTTP. Without it the API's no-op tracer answers every call.
 *
 * Spans: one per request (scripts/console-server.ts), server action (lib/auth/guards.ts),
 * transaction or statement outside one (lib/db/pool.ts), job (lib/jobs/boss.ts), service call
 * (lib/idv/http.ts) and webhook delivery (lib/webhooks/deliver.ts). Work that leaves the process
 * through the database carries the W3C `traceparent` with it: in the job's data and in the
 * webhook event's row, so a label's trace reaches its delivery to the service and its webhooks.
 *
 * No attribute carries personal data: route templates, operation names, statuses and counts only.
 */
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
} from '@opentelemetry/api';

export { SpanKind };

const TRACER = 'verdict';

type Holder = { shutdown?: () => Promise<void>; flush?: () => Promise<void> };
const holder = ((globalThis as unknown as { __verdictTracing?: Holder }).__verdictTracing ??= {});

/** Starts exporting spans when OTEL_EXPORTER_OTLP_ENDPOINT is set; a no-op otherwise, or when already started. */
export async function startTracing(serviceName: string): Promise<boolean> {
  const endpoint = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint || holder.shutdown) return false;
  const [{ NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
    ]);
  const exporter = new OTLPTraceExporter({
    url: process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || `${endpoint.replace(/\/+$/, '')}/v1/traces`,
  });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': process.env.OTEL_SERVICE_NAME || serviceName }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1000 })],
  });
  // Registers the AsyncLocalStorage context manager and the W3C trace-context propagator.
  provider.register();
  holder.flush = () => provider.forceFlush();
  holder.shutdown = () => provider.shutdown();
  return true;
}

/** Sends what is buffered (tests, and a process about to exit). */
export async function flushTracing(): Promise<void> {
  await holder.flush?.();
}

export async function stopTracing(): Promise<void> {
  const stop = holder.shutdown;
  holder.shutdown = undefined;
  holder.flush = undefined;
  await stop?.();
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** A `traceparent` stored with the work (a job's data, an outbox row): the span continues that trace. */
  parent?: string | null;
  links?: Link[];
}

/**
 * Runs `fn` in a new span, ended when it settles; a throw marks it failed (the error's class,
 * never its message: messages can quote parameters).
 */
export async function withSpan<T>(name: string, options: SpanOptions, fn: () => Promise<T>): Promise<T> {
  // Off (no endpoint): not even a no-op span, so the database's statements pay nothing for it.
  if (!holder.shutdown) return fn();
  const tracer = trace.getTracer(TRACER);
  const parent = options.parent ? contextOf(options.parent) : context.active();
  return tracer.startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes, links: options.links },
    parent,
    async (span) => {
      try {
        return await fn();
      } catch (err) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.constructor.name : 'error' });
        throw err;
      } finally {
        span.end();
      }
    },
  );
}

/** Adds attributes to the span of the current context (a status learned after the call started). */
export function setSpanAttributes(attributes: Attributes): void {
  trace.getActiveSpan()?.setAttributes(attributes);
}

/** A setter for the current span's attributes that still works from a callback run in another context. */
export function currentSpanAttributes(): (attributes: Attributes) => void {
  const span = trace.getActiveSpan();
  return (attributes) => span?.setAttributes(attributes);
}

/** The current trace and span ids, for log lines; undefined outside a recorded span. */
export function activeTraceIds(): { traceId: string; spanId: string } | undefined {
  const sc = trace.getActiveSpan()?.spanContext();
  if (!sc || !trace.isSpanContextValid(sc)) return undefined;
  return { traceId: sc.traceId, spanId: sc.spanId };
}

/** The W3C `traceparent` of the current span, to store with work that another process picks up. */
export function currentTraceparent(): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/** The context a stored `traceparent` names (the root context when it is malformed). */
export function contextOf(traceparent: string): Context {
  return propagation.extract(ROOT_CONTEXT, { traceparent });
}

/** A link from the current span to the trace a stored `traceparent` names. */
export function linkTo(traceparent: string | null | undefined): Link[] {
  if (!traceparent) return [];
  const sc = trace.getSpanContext(contextOf(traceparent));
  return sc && trace.isSpanContextValid(sc) ? [{ context: sc }] : [];
}
