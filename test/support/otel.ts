/**
 * A tiny in-memory OpenTelemetry SDK for tests: a tracer provider that records every span (name,
 * attributes, status, parent, whether it ended), and a context manager that carries the active
 * span across awaits as the SDK's AsyncLocalStorage manager does. Register them with
 * `trace.setGlobalTracerProvider` / `context.setGlobalContextManager`; `disable()` both after.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type Context,
  type ContextManager,
  context as otelContext,
  ROOT_CONTEXT,
  type Span,
  type SpanContext,
  type SpanStatus,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';

export interface RecordedSpan {
  readonly name: string;
  readonly attributes: Record<string, unknown>;
  status?: SpanStatus;
  ended: boolean;
  readonly parentSpanId: string | undefined;
  readonly spanContext: SpanContext;
}

class MemorySpan implements Span {
  constructor(readonly record: RecordedSpan) {}
  spanContext(): SpanContext {
    return this.record.spanContext;
  }
  setAttribute(key: string, value: unknown): this {
    this.record.attributes[key] = value;
    return this;
  }
  setAttributes(attributes: Record<string, unknown>): this {
    Object.assign(this.record.attributes, attributes);
    return this;
  }
  addEvent(): this {
    return this;
  }
  addLink(): this {
    return this;
  }
  addLinks(): this {
    return this;
  }
  setStatus(status: SpanStatus): this {
    this.record.status = status;
    return this;
  }
  updateName(): this {
    return this;
  }
  end(): void {
    this.record.ended = true;
  }
  isRecording(): boolean {
    return !this.record.ended;
  }
  recordException(): void {}
}

export class MemoryTracerProvider implements TracerProvider {
  readonly spans: RecordedSpan[] = [];
  private next = 1;
  getTracer(): Tracer {
    const startSpan = (name: string, options: { attributes?: Record<string, unknown> } = {}, ctx?: Context): Span => {
      const parent = trace.getSpan(ctx ?? otelContext.active());
      const record: RecordedSpan = {
        name,
        attributes: { ...(options.attributes ?? {}) },
        ended: false,
        parentSpanId: parent?.spanContext().spanId,
        spanContext: { traceId: `${'0'.repeat(31)}1`, spanId: String(this.next++).padStart(16, '0'), traceFlags: 1 },
      };
      this.spans.push(record);
      return new MemorySpan(record);
    };
    return { startSpan, startActiveSpan: (() => undefined) as never } as Tracer;
  }
}

/** Context propagation across awaits, as the SDK's AsyncLocalStorage context manager does. */
export class AlsContextManager implements ContextManager {
  private readonly als = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.als.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(ctx: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    return this.als.run(ctx, () => fn.call(thisArg, ...args));
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    return this;
  }
}
