/**
 * OpenTelemetry spans for tool calls, through `@opentelemetry/api` only: nothing is recorded and
 * nothing is allocated unless the application registers an SDK tracer provider
 * (`trace.setGlobalTracerProvider`). Spans follow the GenAI semantic conventions:
 * `execute_tool <name>`, with `gen_ai.operation.name`, `gen_ai.tool.name`, `gen_ai.tool.call.id`
 * and, on failure, `error.type` (the gramkit error code) and an error status.
 */
import { context, type Context, ProxyTracerProvider, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ToolError } from './result.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export const TRACER_NAME = 'gramkit';

export interface ToolSpan {
  readonly span: Span;
  /** The active context with the span in it: the implementation runs inside it, so its own spans nest. */
  readonly context: Context;
}

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** The no-op provider a `ProxyTracerProvider` delegates to until an SDK registers. */
const NOOP_DELEGATE = new ProxyTracerProvider().getDelegate();

/**
 * Where every 1.x copy of `@opentelemetry/api` registers its globals (the API's cross-copy
 * contract): `trace` is set there only while a tracer provider is registered.
 */
const OTEL_GLOBAL = Symbol.for('opentelemetry.js.api.1');

/**
 * Whether an SDK tracer provider is registered. Cheap when none is (one global lookup, no
 * allocation), which is what keeps untraced calls fast.
 */
export const tracingEnabled = (): boolean => {
  const api = (globalThis as Record<symbol, { trace?: unknown } | undefined>)[OTEL_GLOBAL];
  if (api === undefined || api.trace === undefined) return false;
  const provider = trace.getTracerProvider();
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegate() !== NOOP_DELEGATE;
};

/** Starts the span of a call; `undefined` when tracing is off or the SDK fails. */
export const startToolSpan = (toolName: string, callId: string, description: string): ToolSpan | undefined => {
  try {
    const tracer = trace.getTracer(TRACER_NAME);
    const parent = context.active();
    const span = tracer.startSpan(
      `execute_tool ${toolName}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': toolName,
          'gen_ai.tool.call.id': callId,
          'gen_ai.tool.type': 'function',
          'gen_ai.tool.description': description,
        },
      },
      parent,
    );
    return { span, context: trace.setSpan(parent, span) };
  } catch {
    return undefined;
  }
};

/** Ends the span of a call with its outcome. Never throws. */
export const endToolSpan = (s: ToolSpan, error: ToolError | undefined): void => {
  try {
    if (error !== undefined) {
      s.span.setAttribute('error.type', String(error.reason));
      s.span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
    } else {
      s.span.setStatus({ code: SpanStatusCode.OK });
    }
    s.span.end();
  } catch {
    // a broken SDK must not break the call
  }
};

/** Runs `f` with the span's context active (so spans the implementation starts are its children). */
export const withSpanContext = <T>(s: ToolSpan, f: () => T): T => context.with(s.context, f);
