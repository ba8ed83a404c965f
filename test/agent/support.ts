/**
 * Small agents and libraries for the agent tests: specifications from gram text, tools that
 * record their calls, and a deferred for proving that calls overlap.
 */
import {
  type AgentSpecification,
  createTool,
  parseSpecifications,
  type Tool,
  type ToolLibrary,
  toolLibrary,
  ToolFailure,
  type ToolSpecification,
} from '../../src/index.js';

export const TOOLS_GRAM = `
[echo:Tool {description: "Returns its text"} | (text::String {description: "What to return"})==>(::String)]
[add:Tool {description: "Adds two integers"} | (a::Integer)==>(b::Integer)==>(::Integer)]
[slow:Tool {description: "Waits, then returns its label"} | (label::String)==>(ms::Integer)==>(::String)]
[boom:Tool {description: "Always throws"} | (why::String)==>(::String)]
[missing:Tool {description: "A tool with no implementation"} | (x::String)==>(::String)]
[helper:Agent {description: "A test agent", instruction: "Use the tools."} | echo, add, slow, boom]
[greedy:Agent {description: "An agent with a tool nobody implements", instruction: "Use the tools."} | echo, missing]
`;

const parsed = parseSpecifications(TOOLS_GRAM, { filename: 'tools.gram' });
if (parsed._tag === 'Left') throw new Error(JSON.stringify(parsed.left));
export const specs = parsed.right;

export const agentNamed = (name: string): AgentSpecification => {
  const a = specs.agents.find((x) => x.name === name);
  if (a === undefined) throw new Error(`no agent ${name}`);
  return a;
};

export const specNamed = (name: string): ToolSpecification => {
  const t = specs.tools.find((x) => x.name === name);
  if (t === undefined) throw new Error(`no tool ${name}`);
  return t;
};

const toolFor = (name: string, impl: (args: any, ctx: { signal: AbortSignal }) => unknown): Tool => {
  const s = specNamed(name);
  return createTool(s.name, s.description, s.schema, impl, { outputSchema: s.outputSchema });
};

export interface Recorder {
  readonly calls: Array<{ tool: string; args: unknown; context?: unknown }>;
  readonly library: ToolLibrary;
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** The library of `helper`, recording every call. */
export const recordingLibrary = (): Recorder => {
  const calls: Recorder['calls'] = [];
  const library = toolLibrary([
    toolFor('echo', (args: { text: string }, ctx: any) => {
      calls.push({ tool: 'echo', args, context: ctx.context });
      return args.text;
    }),
    toolFor('add', (args: { a: number; b: number }) => {
      calls.push({ tool: 'add', args });
      return args.a + args.b;
    }),
    toolFor('slow', async (args: { label: string; ms: number }, ctx) => {
      calls.push({ tool: 'slow', args });
      await sleep(args.ms, ctx.signal);
      return args.label;
    }),
    toolFor('boom', (args: { why: string }) => {
      calls.push({ tool: 'boom', args });
      if (args.why === 'failure') throw new ToolFailure('NOT_FOUND', 'nothing there', { details: { why: args.why } });
      throw new Error(`boom: ${args.why}`);
    }),
  ]);
  return { calls, library };
};

export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(v: T): void;
}

export const deferred = <T>(): Deferred<T> => {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
};

/** A copy of a run or report with what changes from run to run (ids, clocks, durations) replaced. */
export const stable = (value: unknown): unknown =>
  JSON.parse(
    JSON.stringify(value, (key, v) => {
      if (typeof v === 'number' && /(^|[a-z])(durationMs|startMs|p50|p95|mean|min|max)$|Ms$/.test(key)) return 0;
      if (key === 'latencyMs' && v !== null && typeof v === 'object') return { p50: 0, p95: 0, mean: 0, min: 0, max: 0 };
      if (key === 'latencyCI' && Array.isArray(v)) return [0, 0];
      if ((key === 'runId' || key === 'startedAt' || key === 'lastCalledAt') && typeof v === 'string') return `<${key}>`;
      return v;
    }),
  );
