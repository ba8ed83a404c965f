/**
 * Tools, libraries, binding and invocation, from `sayHello` to metrics and events.
 *
 *   npx tsx examples/library-basics.ts
 */
import { pathToFileURL } from 'node:url';
import {
  bindTool,
  createTool,
  createToolMetrics,
  emptyToolLibrary,
  formatBindError,
  type InvocationEvent,
  invoke,
  lookupTool,
  onEvent,
  parseSpecifications,
  registerTool,
  type ToolResult,
} from 'gramkit';

export const libraryBasics = async (): Promise<ReadonlyArray<string>> => {
  const out: string[] = [];

  // 1. the specification: what the tool is (plain data, from gram)
  const parsed = parseSpecifications(`
[sayHello:Tool {description: "Returns a friendly greeting message for the given name"} |
  (name::String {description: "Who to greet"})==>(::String)
]`);
  if (parsed._tag === 'Left') return parsed.left.map((d) => d.message);
  const [spec] = parsed.right.tools;
  if (spec === undefined) return ['no tool'];

  // 2. the tool: what it does (createTool: name, description, schema, function)
  const sayHello = createTool(
    'sayHello',
    'Returns a friendly greeting message for the given name',
    { type: 'object', properties: { name: { type: 'string', description: 'Who to greet' } }, required: ['name'] },
    (args: { name: string }) => `Hello, ${args.name}! Nice to meet you.`,
  );

  // 3. an immutable library: registering returns a new library, the old one is unchanged
  const library = registerTool('sayHello', sayHello, emptyToolLibrary);
  out.push(`empty library still empty: ${lookupTool('sayHello', emptyToolLibrary) === undefined}`);

  // 4. late binding: the specification joined to the tool of the same name, if they agree
  const metrics = createToolMetrics();
  const events: InvocationEvent[] = [];
  const bound = bindTool(spec, library, { observer: onEvent((e) => events.push(e)) });
  if (bound._tag === 'Left') return bound.left.map(formatBindError);

  // 5. invocation never throws: every failure is a result with stable codes (canonical `code`, precise `reason`)
  const show = (r: ToolResult) => (r.ok ? `ok: ${JSON.stringify(r.value)}` : `${r.error.reason}: ${r.error.message}`);
  out.push(show(await invoke(bound.right, { name: 'Ada' }, { observer: metrics })));
  out.push(show(await invoke(bound.right, { name: 42 }, { observer: metrics })));
  out.push(show(await invoke(bound.right, {}, { observer: metrics })));

  // 6. events and metrics
  out.push(`events: ${events.map((e) => e.type).join(', ')}`);
  const usage = metrics.usage('sayHello');
  out.push(`sayHello: ${usage?.callCount} calls, errors ${JSON.stringify(usage?.errorsByCode)}`);

  // 7. a tool that disagrees with its specification does not bind, and the error shows why
  const rude = createTool('sayHello', 'Returns a greeting', { type: 'object', properties: { name: { type: 'integer' } } }, () => 'hey');
  const mismatch = bindTool(spec, registerTool('sayHello', rude, library));
  if (mismatch._tag === 'Left') out.push(...mismatch.left.map(formatBindError));
  return out;
};

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await libraryBasics()) process.stdout.write(`${line}\n`);
}
