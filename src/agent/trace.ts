/**
 * The trace of a run: timed spans (the run, each step, each model call, each tool call, each
 * approval), plain JSON in the run's result, so a run can be inspected after the fact without an
 * OpenTelemetry SDK (`gramkit run --debug` prints it). When an SDK is registered, the run and its
 * model calls are also OpenTelemetry spans (`telemetry.ts`), and tool calls nest under them.
 */

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export type TraceSpanKind = 'run' | 'step' | 'model' | 'tool' | 'approval';

export type TraceAttribute = string | number | boolean;

export interface TraceSpan {
  /** 0 for the run, then in start order. */
  readonly id: number;
  readonly parentId?: number;
  readonly kind: TraceSpanKind;
  /** The agent, `step 2`, the model id, the tool name. */
  readonly name: string;
  /** Start, in milliseconds from the start of the run. */
  readonly startMs: number;
  readonly durationMs: number;
  readonly status: 'ok' | 'error';
  /** The error code, when `status` is `error`. */
  readonly error?: string;
  readonly attributes?: Readonly<Record<string, TraceAttribute>>;
}

export interface AgentTrace {
  readonly runId: string;
  readonly agent: string;
  readonly model: string;
  /** ISO 8601. */
  readonly startedAt: string;
  readonly durationMs: number;
  readonly spans: ReadonlyArray<TraceSpan>;
  /** How many times the `onEvent` listener threw (the run went on). */
  readonly listenerErrors?: number;
}

export interface SpanHandle {
  readonly id: number;
  /** Ends the span (once; later calls are ignored). */
  end(status?: 'ok' | 'error', error?: string, attributes?: Readonly<Record<string, TraceAttribute>>): void;
}

export interface TraceRecorder {
  start(kind: TraceSpanKind, name: string, parentId?: number, attributes?: Readonly<Record<string, TraceAttribute>>): SpanHandle;
  /** The trace so far (spans still open are shown with the time elapsed until now). */
  snapshot(listenerErrors?: number): AgentTrace;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

const round = (ms: number): number => Math.round(ms * 1000) / 1000;

interface OpenSpan {
  id: number;
  parentId: number | undefined;
  kind: TraceSpanKind;
  name: string;
  start: number;
  end: number | undefined;
  status: 'ok' | 'error';
  error: string | undefined;
  attributes: Record<string, TraceAttribute> | undefined;
}

/** A recorder for one run; `now` is a monotonic clock in milliseconds (`performance.now`). */
export const traceRecorder = (runId: string, agent: string, model: string, now: () => number = () => performance.now()): TraceRecorder => {
  const origin = now();
  const startedAt = new Date().toISOString();
  const spans: OpenSpan[] = [];
  return {
    start: (kind, name, parentId, attributes) => {
      const s: OpenSpan = {
        id: spans.length,
        parentId,
        kind,
        name,
        start: now(),
        end: undefined,
        status: 'ok',
        error: undefined,
        attributes: attributes !== undefined ? { ...attributes } : undefined,
      };
      spans.push(s);
      return {
        id: s.id,
        end: (status = 'ok', error, extra) => {
          if (s.end !== undefined) return;
          s.end = now();
          s.status = status;
          s.error = error;
          if (extra !== undefined) s.attributes = { ...s.attributes, ...extra };
        },
      };
    },
    snapshot: (listenerErrors) => {
      const t = now();
      return {
        runId,
        agent,
        model,
        startedAt,
        durationMs: round(t - origin),
        spans: spans.map((s) => ({
          id: s.id,
          ...(s.parentId !== undefined ? { parentId: s.parentId } : {}),
          kind: s.kind,
          name: s.name,
          startMs: round(s.start - origin),
          durationMs: round((s.end ?? t) - s.start),
          status: s.status,
          ...(s.error !== undefined ? { error: s.error } : {}),
          ...(s.attributes !== undefined ? { attributes: s.attributes } : {}),
        })),
        ...(listenerErrors !== undefined && listenerErrors > 0 ? { listenerErrors } : {}),
      };
    },
  };
};

// -------------------------------------------------------------------------------------------------
// rendering
// -------------------------------------------------------------------------------------------------

const ms = (v: number): string => (v >= 100 ? `${v.toFixed(0)} ms` : v >= 10 ? `${v.toFixed(1)} ms` : `${v.toFixed(2)} ms`);

const attributeText = (a: Readonly<Record<string, TraceAttribute>> | undefined): string =>
  a === undefined
    ? ''
    : Object.entries(a)
        .map(([k, v]) => `${k}=${typeof v === 'string' ? (v.length > 60 ? JSON.stringify(`${v.slice(0, 59)}…`) : JSON.stringify(v)) : String(v)}`)
        .join(' ');

/**
 * The trace as an indented tree, one span a line, for people (`gramkit run --debug`):
 *
 *     run hello_world_agent  3.10 ms  ok
 *       step 1  2.02 ms  ok
 *         model offline  0.35 ms  ok  finishReason="tool_calls" ...
 */
export const formatTrace = (trace: AgentTrace): string => {
  const children = new Map<number | undefined, TraceSpan[]>();
  for (const s of trace.spans) {
    const list = children.get(s.parentId) ?? [];
    list.push(s);
    children.set(s.parentId, list);
  }
  const lines = [`trace ${trace.runId} (agent ${trace.agent}, model ${trace.model}, started ${trace.startedAt}, ${ms(trace.durationMs)})`];
  const walk = (parent: number | undefined, depth: number): void => {
    for (const s of children.get(parent) ?? []) {
      const status = s.status === 'ok' ? 'ok' : `error ${s.error ?? ''}`.trim();
      const attrs = attributeText(s.attributes);
      lines.push(
        `${'  '.repeat(depth + 1)}${s.kind === 'step' || s.kind === 'run' ? '' : `${s.kind} `}${s.name}  +${ms(s.startMs)}  ${ms(s.durationMs)}  ${status}${attrs.length > 0 ? `  ${attrs}` : ''}`,
      );
      walk(s.id, depth + 1);
    }
  };
  walk(undefined, 0);
  if (trace.listenerErrors !== undefined) lines.push(`  (the event listener threw ${trace.listenerErrors} time${trace.listenerErrors === 1 ? '' : 's'})`);
  return lines.join('\n');
};
