import type { IncomingMessage, RequestOptions } from 'node:http';
import type { AppConfig } from '../config/config.schema';
import { markTracingStarted } from './trace-context';

type TracingConfig = Pick<
  AppConfig,
  | 'OTEL_EXPORTER_OTLP_ENDPOINT'
  | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'
  | 'OTEL_EXPORTER_OTLP_PROTOCOL'
  | 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
  | 'OTEL_SERVICE_NAME'
  | 'OTEL_SDK_DISABLED'
>;

/** Tracing is on when an OTLP endpoint is configured and the SDK is not disabled. */
export function tracingConfigured(config: TracingConfig): boolean {
  return !config.OTEL_SDK_DISABLED && Boolean(config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? config.OTEL_EXPORTER_OTLP_ENDPOINT);
}

let stop: (() => Promise<void>) | undefined;

/**
 * What spans may say about a call: a Redis command's name, not its arguments (a job's data holds a push's text),
 * and a request's origin, not its path (a push endpoint's path is the subscription's secret).
 */
const commandOnly = (command: string) => command;
const originOnly = (req: RequestOptions) => ({ 'url.full': `${req.protocol ?? 'http:'}//${req.hostname ?? req.host}${req.port ? `:${req.port}` : ''}/` });

/** Probes ask every few seconds, and a scrape of /metrics is no one's request: neither starts a trace. */
const untraced = (req: IncomingMessage) => req.url?.startsWith('/api/health') === true || req.url === '/metrics';

/**
 * Starts the OpenTelemetry SDK when tracing is configured, and answers whether it did. Must run before the
 * modules it instruments are loaded (http, express, pg, ioredis, redis: main.ts imports the application after
 * it), so their spans are made. With tracing off none of the SDK is even loaded.
 *
 * Spans of database and Redis commands are made only inside a trace (a request's, a socket event's, a job's):
 * the outbox relay's polling, BullMQ's blocking reads and the heartbeats would otherwise be a trace each.
 */
export async function startTracing(config: TracingConfig, serviceName: string): Promise<boolean> {
  if (!tracingConfigured(config)) return false;
  const [{ NodeTracerProvider, BatchSpanProcessor }, { resourceFromAttributes }, { registerInstrumentations }] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/instrumentation'),
  ]);
  const json = (config.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? config.OTEL_EXPORTER_OTLP_PROTOCOL) === 'http/json';
  // Both read the endpoint, headers and timeout from the standard OTEL_EXPORTER_OTLP_* variables.
  const { OTLPTraceExporter } = json ? await import('@opentelemetry/exporter-trace-otlp-http') : await import('@opentelemetry/exporter-trace-otlp-proto');
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.OTEL_SERVICE_NAME ?? serviceName }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // The AsyncLocalStorage context manager and the W3C trace-context propagator.
  provider.register();
  const [{ HttpInstrumentation }, { ExpressInstrumentation, ExpressLayerType }, { PgInstrumentation }, { IORedisInstrumentation }, { RedisInstrumentation }] =
    await Promise.all([
      import('@opentelemetry/instrumentation-http'),
      import('@opentelemetry/instrumentation-express'),
      import('@opentelemetry/instrumentation-pg'),
      import('@opentelemetry/instrumentation-ioredis'),
      import('@opentelemetry/instrumentation-redis'),
    ]);
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: untraced, requireParentforOutgoingSpans: true, startOutgoingSpanHook: originOnly }),
      // The route handler's span; a span per middleware (body parsers, helmet, logging) would say little.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: commandOnly }),
      new RedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: commandOnly }),
    ],
  });
  markTracingStarted();
  stop = () => provider.shutdown();
  return true;
}

/** Sends the spans still buffered and stops the SDK (at shutdown); nothing when tracing is off. */
export async function stopTracing(): Promise<void> {
  const stopping = stop;
  stop = undefined;
  await stopping?.().catch(() => undefined);
}
