import { Context, context, propagation, ROOT_CONTEXT, Span, SpanKind, SpanOptions, SpanStatusCode, trace } from '@opentelemetry/api';

/**
 * The trace context the app carries itself, where no instrumentation does: into the outbox row, into a job's
 * data, into a log line. Every function here does nothing (and costs a flag check) until startTracing ran, so
 * with tracing off the hot path pays nothing for it.
 */
let tracing = false;

/** Called by startTracing once the SDK is registered. */
export function markTracingStarted(): void {
  tracing = true;
}

export const tracingStarted = (): boolean => tracing;

const tracer = () => trace.getTracer('parley');

/** The active span's W3C traceparent, for work that continues elsewhere (an outbox row, a job); undefined without one. */
export function activeTraceparent(): string | undefined {
  if (!tracing || !trace.getActiveSpan()) return undefined;
  const carrier: { traceparent?: string } = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/** `item` with the active span's traceparent added, while a span is active; `item` itself otherwise. */
export function withTraceparent<T extends object>(item: T): T & { traceparent?: string } {
  const traceparent = activeTraceparent();
  return traceparent ? { ...item, traceparent } : item;
}

/** The context a carried traceparent stands for (a child of it continues its trace); the root context without one. */
export function contextOf(traceparent: unknown): Context {
  return typeof traceparent === 'string' ? propagation.extract(ROOT_CONTEXT, { traceparent }) : ROOT_CONTEXT;
}

/** Starts a span (child of `parent`, else of the active span); undefined while tracing is off. */
export function startSpan(name: string, options: SpanOptions, parent: Context = context.active()): Span | undefined {
  return tracing ? tracer().startSpan(name, options, parent) : undefined;
}

/** Runs `fn` with `span` active (so what it does, and what that queues, belongs to the span); `fn` alone without one. */
export function withSpan<T>(span: Span | undefined, fn: () => T): T {
  return span ? context.with(trace.setSpan(context.active(), span), fn) : fn();
}

/** The W3C traceparent of a given span. */
export function traceparentOf(span: Span): string {
  const carrier: { traceparent?: string } = {};
  propagation.inject(trace.setSpan(ROOT_CONTEXT, span), carrier);
  return carrier.traceparent!;
}

/** Ends a span as failed. */
export function failSpan(span: Span | undefined, err: unknown): void {
  if (!span) return;
  span.recordException(err instanceof Error ? err : String(err));
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
  span.end();
}

/**
 * Runs `fn` in a new span and ends it when `fn`'s promise settles (failed if it rejects); `fn` alone while
 * tracing is off.
 */
export async function inSpan<T>(name: string, options: SpanOptions, parent: Context | undefined, fn: () => Promise<T>): Promise<T> {
  const span = startSpan(name, options, parent);
  if (!span) return fn();
  try {
    const result = await withSpan(span, fn);
    span.end();
    return result;
  } catch (err) {
    failSpan(span, err);
    throw err;
  }
}

/** The fields a log line gets while a span is active (the names OpenTelemetry's pino instrumentation uses). */
export function traceLogFields(): { trace_id?: string; span_id?: string; trace_flags?: string } {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId, traceFlags } = span.spanContext();
  return { trace_id: traceId, span_id: spanId, trace_flags: `0${traceFlags.toString(16)}` };
}

/** pino options for a logger: the trace fields in every line while tracing; nothing otherwise. */
export function traceLogMixin(): { mixin?: () => object } {
  return tracing ? { mixin: traceLogFields } : {};
}

export { SpanKind };
