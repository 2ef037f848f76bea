import type { Span } from '@opentelemetry/api';
import { contextOf, failSpan, SpanKind, startSpan, tracingStarted, traceparentOf } from '#shared/telemetry/trace-context';
import { OutboxRow } from './outbox-job-owner';

/**
 * One relay pass's spans: one per dispatched row that carries a trace (`outbox dispatch <topic>`, a child of the
 * request or socket event that wrote the row), whose context the row's jobs carry. Rows without a trace, and
 * every row while tracing is off, cost nothing here.
 */
export class OutboxDispatchSpans {
  private readonly spans = new Map<string, Span>();

  /** What a row's jobs carry: its dispatch span's traceparent, the row's own if this process does not trace, or none. */
  traceparentFor(row: OutboxRow): string | undefined {
    if (!row.traceparent) return undefined;
    if (!tracingStarted()) return row.traceparent;
    let span = this.spans.get(row.id);
    if (!span) {
      span = startSpan(
        `outbox dispatch ${row.topic}`,
        { kind: SpanKind.PRODUCER, attributes: { 'parley.outbox.id': String(row.id), 'parley.outbox.topic': row.topic } },
        contextOf(row.traceparent),
      )!;
      this.spans.set(row.id, span);
    }
    return traceparentOf(span);
  }

  /** The rows' jobs are queued and the rows marked dispatched. */
  end(): void {
    for (const span of this.spans.values()) span.end();
  }

  /** The pass rolled back: its rows wait for the next one. */
  fail(err: unknown): void {
    for (const span of this.spans.values()) failSpan(span, err);
  }
}
