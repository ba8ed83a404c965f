/**
 * What a gramkit MCP server offers beside its tools: the agents of its `.gram` file as MCP prompts,
 * and the served specifications as resources.
 *
 * A prompt is an agent: `prompts/get` gives its instruction as the first message, followed by the
 * tools it may call, named (and noted when this server does not serve one). An optional `task`
 * argument is the user's message after it.
 *
 * Each served tool is two resources: `gram://tools/{name}` (its gram text, `text/x-gram`) and
 * `gram://tools/{name}/schema.json` (its arguments' JSON Schema with the result's, as
 * `application/schema+json`).
 *
 * Lists are paged (`tools/list`, `prompts/list`, `resources/list`): a cursor is the opaque position
 * of the next page; a cursor this server did not give is `-32602`.
 */
import type { JsonObject } from '../core/json-schema.js';
import type { BoundTool } from '../library/bind.js';
import { printSpecifications } from '../specification/serialize.js';
import type { AgentSpecification } from '../specification/agent-spec.js';

// -------------------------------------------------------------------------------------------------
// pages
// -------------------------------------------------------------------------------------------------

/** Items per page of a list when the server is given no size. */
export const DEFAULT_PAGE_SIZE = 100;

export type Page<A> = { readonly ok: true; readonly items: ReadonlyArray<A>; readonly nextCursor?: string } | { readonly ok: false; readonly message: string };

const CURSOR_PREFIX = 'gramkit:';

/** The page of `items` that `cursor` names (the first page without one). */
export const pageOf = <A>(items: ReadonlyArray<A>, cursor: unknown, size: number): Page<A> => {
  let start = 0;
  if (cursor !== undefined) {
    const text = typeof cursor === 'string' ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
    const n = text.startsWith(CURSOR_PREFIX) ? Number(text.slice(CURSOR_PREFIX.length)) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < 0 || n > items.length)
      return { ok: false, message: `the cursor ${JSON.stringify(cursor)} is not one this server gave; list again without a cursor` };
    start = n;
  }
  const end = start + size;
  return {
    ok: true,
    items: items.slice(start, end),
    ...(end < items.length ? { nextCursor: Buffer.from(`${CURSOR_PREFIX}${end}`, 'utf8').toString('base64url') } : {}),
  };
};

// -------------------------------------------------------------------------------------------------
// prompts
// -------------------------------------------------------------------------------------------------

/** The `prompts/list` entry of an agent. */
export const promptDefinition = (agent: AgentSpecification): JsonObject => ({
  name: agent.name,
  description: agent.description,
  arguments: [{ name: 'task', description: 'What to ask the agent (the user message after its instruction)', required: false }],
});

/** The `prompts/get` result of an agent: its instruction with its tools named, then the task. */
export const promptMessages = (agent: AgentSpecification, served: ReadonlySet<string>, task: string | undefined): JsonObject => {
  const tools = agent.tools.map((t) => `- ${t.name}: ${t.description}${served.has(t.name) ? '' : ' (not served by this server)'}`);
  const text = tools.length > 0 ? `${agent.instruction}\n\nYour tools:\n${tools.join('\n')}` : agent.instruction;
  return {
    description: agent.description,
    messages: [
      { role: 'user', content: { type: 'text', text } },
      ...(task !== undefined && task !== '' ? [{ role: 'user', content: { type: 'text', text: task } }] : []),
    ],
  };
};

// -------------------------------------------------------------------------------------------------
// resources
// -------------------------------------------------------------------------------------------------

export const GRAM_MIME = 'text/x-gram';
export const SCHEMA_MIME = 'application/schema+json';

const gramUri = (name: string): string => `gram://tools/${encodeURIComponent(name)}`;
const schemaUri = (name: string): string => `${gramUri(name)}/schema.json`;

/** The `resources/list` entries of the served tools (two each). */
export const resourceDefinitions = (tools: ReadonlyArray<BoundTool>): ReadonlyArray<JsonObject> =>
  tools.flatMap((b) => [
    { uri: gramUri(b.name), name: b.name, title: `${b.name} (gram)`, description: b.spec.description, mimeType: GRAM_MIME },
    {
      uri: schemaUri(b.name),
      name: `${b.name}.schema.json`,
      title: `${b.name} (JSON Schema)`,
      description: `The JSON Schema of ${b.name}'s arguments and result`,
      mimeType: SCHEMA_MIME,
    },
  ]);

/** The contents of a resource, or undefined when no served tool has that URI. */
export const readResource = (tools: ReadonlyArray<BoundTool>, uri: string): JsonObject | undefined => {
  for (const b of tools) {
    if (uri === gramUri(b.name)) return { contents: [{ uri, mimeType: GRAM_MIME, text: printSpecifications({ tools: [b.spec] }) }] };
    if (uri === schemaUri(b.name)) {
      const schema = {
        name: b.name,
        description: b.spec.description,
        inputSchema: b.spec.schema,
        ...(b.spec.outputSchema !== undefined ? { outputSchema: b.spec.outputSchema } : {}),
      };
      return { contents: [{ uri, mimeType: SCHEMA_MIME, text: JSON.stringify(schema, null, 2) }] };
    }
  }
  return undefined;
};
