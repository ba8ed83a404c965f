/**
 * OpenTelemetry spans of a run, through `@opentelemetry/api` only, following the GenAI semantic
 * conventions: `invoke_agent <agent>` for the run and `chat <model>` for each model call; the
 * library's `execute_tool <name>` spans nest under the run. Nothing is created unless an SDK
 * tracer provider is registered (the check is one global lookup).
 */
import { type Context, context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { TRACER_NAME, tracingEnabled } from '../library/tracing.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface OtelSpan {
  readonly span: Span;
  readonly context: Context;
}

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const start = (name: string, attributes: Record<string, string | number>, parent: Context | undefined): OtelSpan | undefined => {
  if (!tracingEnabled()) return undefined;
  try {
    const ctx = parent ?? context.active();
    const span = trace.getTracer(TRACER_NAME).startSpan(name, { kind: SpanKind.INTERNAL, attributes }, ctx);
    return { span, context: trace.setSpan(ctx, span) };
  } catch {
    return undefined;
  }
};

/** The span of a run (`invoke_agent`), or undefined when tracing is off. */
export const startRunSpan = (agent: string, model: string): OtelSpan | undefined =>
  start(`invoke_agent ${agent}`, { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': agent, 'gen_ai.request.model': model }, undefined);

/** The span of one model call (`chat`), a child of the run's. */
export const startChatSpan = (model: string, parent: OtelSpan | undefined): OtelSpan | undefined =>
  parent === undefined ? undefined : start(`chat ${model}`, { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': model }, parent.context);

/** Ends a span with its outcome and attributes; never throws. */
export const endOtelSpan = (
  s: OtelSpan | undefined,
  errorCode: string | undefined,
  attributes: Record<string, string | number | ReadonlyArray<string>> = {},
): void => {
  if (s === undefined) return;
  try {
    for (const [k, v] of Object.entries(attributes)) s.span.setAttribute(k, v as string | number | string[]);
    if (errorCode !== undefined) {
      s.span.setAttribute('error.type', errorCode);
      s.span.setStatus({ code: SpanStatusCode.ERROR });
    } else s.span.setStatus({ code: SpanStatusCode.OK });
    s.span.end();
  } catch {
    // a broken SDK must not break the run
  }
};

/** Runs `f` inside `ctx` (tool spans then nest under the run), or plainly when there is none. */
export const withOtelContext = <T>(ctx: Context | undefined, f: () => T): T => (ctx === undefined ? f() : context.with(ctx, f));
