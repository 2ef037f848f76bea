import { SpanStatusCode } from '@opentelemetry/api';
import { SpanKind, startSpan, tracingStarted, withSpan } from './trace-context';

type EventHandler = (data: unknown, ack?: (response: unknown) => void) => unknown;

/** An acknowledgement the handlers answer with: { ok: true, ... } or { ok: false, error: { code, message } }. */
interface AckLike {
  ok?: boolean;
  error?: { code?: number; message?: string };
}

/**
 * A handled client event as a span (`socket <event>`): what the handler does runs inside it (the insert, the
 * outbox row it writes, the fan-out), and it ends when the handler's answer is ready. A refusal answered with an
 * acknowledgement is recorded as its code; only a 5xx marks the span failed. With tracing off the handler is
 * returned as it is.
 */
export function traceSocketEvent<H extends EventHandler>(event: string, handler: H): H {
  if (!tracingStarted()) return handler;
  // The gateway's handlers are bound to every socket: one wrapper each, not one per socket.
  let traced = wrappers.get(handler);
  if (!traced) wrappers.set(handler, (traced = spanEvery(event, handler)));
  return traced as H;
}

const wrappers = new WeakMap<EventHandler, EventHandler>();

function spanEvery(event: string, handler: EventHandler): EventHandler {
  const name = `socket ${event}`;
  return (data: unknown, ack?: (response: unknown) => void) => {
    const span = startSpan(name, { kind: SpanKind.SERVER, attributes: { 'messaging.system': 'socket.io', 'socket.io.event': event } })!;
    let result: unknown;
    try {
      result = withSpan(span, () => handler(data, ack));
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
      span.end();
      throw err;
    }
    if (!(result instanceof Promise)) {
      span.end();
      return result;
    }
    return result.then(
      (answer: unknown) => {
        const error = (answer as AckLike | null)?.ok === false ? (answer as AckLike).error : undefined;
        if (error?.code !== undefined) span.setAttribute('parley.ack.error_code', error.code);
        if (error?.code !== undefined && error.code >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
        span.end();
        return answer;
      },
      (err: unknown) => {
        span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
        span.end();
        throw err;
      },
    );
  };
}
