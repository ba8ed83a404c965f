/**
 * MCP beyond tools/list and tools/call, through the SDK's own client: results as content (strings
 * as text, images kept end to end through `mcp:`), progress, logging, cancellation, approvals asked
 * through elicitation, agents as prompts, specifications as resources, and paged lists.
 */
import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindAll, defineTool, invoke, parseSpecifications, type InvocationContext, type Tool, toolLibrary } from '../../src/index.js';
import { connectMcp, createMcpHttpHandler, type McpConnection, serveMcpStdio, staticToolSource } from '../../src/entries/mcp.js';
import { defaultRuleEngine, PolicyCodes } from '../../src/entries/policy.js';
import { pipePair } from '../support/pipe-transport.js';
import { listen, type Listening } from './support.js';

const GRAM = `
[hello:Tool {description: "Says hello"} | (name::String)==>(::String)]
[digits:Tool {description: "A string of digits"} | (n::Integer)==>(::String)]
[picture:Tool {description: "A one-pixel picture with its size"} | (color::String)==>(::Object)]
[slow:Tool {description: "Counts to n, reporting progress"} | (n::Integer)==>(::Integer)]
[hang:Tool {description: "Waits until cancelled"} | (label::String)==>(::String)]
[remove:Tool {description: "Removes a file (asks for approval)"} | (path::String)==>(::String)]
[helper:Agent {description: "Greets people", instruction: "Greet the person politely."} | hello, picture]
`;

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const cancelled: string[] = [];

const tool = <A>(name: string, impl: (a: A, ctx: InvocationContext) => unknown, options: Parameters<typeof defineTool>[2] = {}): Tool => {
  const r = defineTool<A>(GRAM, impl, { name, ...options });
  if (r._tag === 'Left') throw new Error(r.left.map((d) => d.message).join('\n'));
  return r.right;
};

const library = toolLibrary([
  tool<{ name: string }>('hello', ({ name }) => `Hello, ${name}`),
  tool<{ n: number }>('digits', ({ n }) => String(n)),
  tool<{ color: string }>('picture', ({ color }) => ({
    content: [
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'text', text: color },
    ],
    structuredContent: { width: 1, height: 1 },
  })),
  tool<{ n: number }>('slow', async ({ n }, ctx) => {
    for (let i = 1; i <= n; i++) {
      await new Promise((r) => setTimeout(r, 1));
      ctx.progress?.(i, n, `step ${i}`);
    }
    return n;
  }),
  tool<{ label: string }>(
    'hang',
    ({ label }, ctx) =>
      new Promise((_resolve, reject) =>
        ctx.signal.addEventListener(
          'abort',
          () => {
            cancelled.push(label);
            reject(new Error('cancelled'));
          },
          { once: true },
        ),
      ),
  ),
  tool<{ path: string }>('remove', ({ path }) => `removed ${path}`, { annotations: { permissions: ['fs:write'], safetyLevel: 'high', approval: 'confirm' } }),
]);

const parsed = parseSpecifications(GRAM);
if (parsed._tag === 'Left') throw new Error(parsed.left.map((d) => d.message).join('\n'));
const specs = parsed.right;
const bound = bindAll(specs.tools, library);
if (bound._tag === 'Left') throw new Error('bind');
const source = staticToolSource(bound.right, specs.agents);
const policies = { rules: defaultRuleEngine };

/** A v2 client over an in-process stdio connection to `serveMcpStdio`. */
const stdioPair = async (client: Client, options: { pageSize?: number } = {}) => {
  const pipes = pipePair();
  const server = serveMcpStdio(source, { stdin: pipes.toServer, stdout: pipes.toClient, policies, ...options });
  await client.connect(pipes.transport as never);
  return {
    close: async () => {
      await client.close();
      await server.close();
    },
  };
};

let http: ReturnType<typeof createMcpHttpHandler>;
let server: Listening;

beforeAll(async () => {
  http = createMcpHttpHandler(source, { policies });
  server = await listen(http.node);
});
afterAll(async () => {
  await http.close();
  await server.close();
});

const httpClient = async (): Promise<Client> => {
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  const c = new Client({ name: 'test', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(server.url));
  return c;
};

describe('results as content', () => {
  it('a string arrives as its text, not JSON-quoted; a gramkit client reads it back as the same string', async () => {
    const c = await httpClient();
    try {
      const r = await c.callTool({ name: 'hello', arguments: { name: 'Ada' } });
      expect(r.content).toEqual([{ type: 'text', text: 'Hello, Ada' }]);
      // a text that cannot be JSON needs no marker; one that can is marked, so gramkit reads a string
      expect(r._meta?.['gramkit/text']).toBeUndefined();
      const d = await c.callTool({ name: 'digits', arguments: { n: 42 } });
      expect(d.content).toEqual([{ type: 'text', text: '42' }]);
      expect(d._meta?.['gramkit/text']).toBe(true);
    } finally {
      await c.close();
    }
    const conn = await connectMcp(`mcp:${server.url.href}`);
    if (conn._tag === 'Left') throw new Error('connect');
    try {
      const remote = bindAll(
        specs.tools.filter((t) => t.name === 'digits'),
        conn.right.library,
      );
      if (remote._tag === 'Left') throw new Error('bind');
      expect(await invoke(remote.right.byName.get('digits')!, { n: 42 })).toEqual({ ok: true, value: '42' });
    } finally {
      await conn.right.close();
    }
  });

  it('a tool returns MCP content (an image) with structuredContent; through mcp: and served again, the image is still an image', async () => {
    const c = await httpClient();
    const direct = await c.callTool({ name: 'picture', arguments: { color: 'red' } });
    await c.close();
    expect(direct.content).toEqual([
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'text', text: 'red' },
    ]);
    expect(direct.structuredContent).toEqual({ width: 1, height: 1 });

    // a second server whose tools are the first server's, used through mcp:
    let conn: McpConnection | undefined;
    const c1 = await connectMcp(`mcp:${server.url.href}`);
    if (c1._tag === 'Left') throw new Error('connect');
    conn = c1.right;
    const relayed = bindAll(conn.specifications, conn.library);
    if (relayed._tag === 'Left') throw new Error(relayed.left.map((e) => e.message).join('\n'));
    const h2 = createMcpHttpHandler(staticToolSource(relayed.right));
    const s2 = await listen(h2.node);
    const c2 = new Client({ name: 'test', version: '1.0.0' });
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    await c2.connect(new StreamableHTTPClientTransport(s2.url));
    try {
      const through = await c2.callTool({ name: 'picture', arguments: { color: 'blue' } });
      expect(through.isError).toBeFalsy();
      expect(through.content).toEqual([
        { type: 'image', data: PNG, mimeType: 'image/png' },
        { type: 'text', text: 'blue' },
      ]);
      expect(through.structuredContent).toEqual({ width: 1, height: 1 });
      expect((await c2.callTool({ name: 'hello', arguments: { name: 'Bo' } })).content).toEqual([{ type: 'text', text: 'Hello, Bo' }]);
    } finally {
      await c2.close();
      await h2.close();
      await s2.close();
      await conn.close();
    }
  });
});

describe.each(['http', 'stdio'] as const)('progress and cancellation over %s', (transport) => {
  const connect = async (): Promise<{ client: Client; close: () => Promise<void> }> => {
    if (transport === 'http') {
      const client = await httpClient();
      return { client, close: () => client.close() };
    }
    const client = new Client({ name: 'test', version: '1.0.0' });
    const pair = await stdioPair(client);
    return { client, close: pair.close };
  };

  it('ctx.progress sends notifications/progress to a client that sent a progress token', async () => {
    const { client, close } = await connect();
    try {
      const seen: Array<{ progress: number; total?: number; message?: string }> = [];
      const r = await client.callTool({ name: 'slow', arguments: { n: 3 } }, { onprogress: (p) => void seen.push(p) });
      expect(r.content).toEqual([{ type: 'text', text: '3' }]);
      expect(seen.map((p) => [p.progress, p.total, p.message])).toEqual([
        [1, 3, 'step 1'],
        [2, 3, 'step 2'],
        [3, 3, 'step 3'],
      ]);
    } finally {
      await close();
    }
  });

  // stateless HTTP: the notification is a request of its own, answered by another server instance
  it.runIf(transport === 'stdio')('notifications/cancelled aborts the call’s signal', async () => {
    const { client, close } = await connect();
    const label = `${transport}-${Math.random()}`;
    try {
      const abort = new AbortController();
      const pending = client.callTool({ name: 'hang', arguments: { label } }, { signal: abort.signal });
      await new Promise((r) => setTimeout(r, 100));
      abort.abort('the user stopped it');
      await expect(pending).rejects.toThrow();
      for (let i = 0; i < 100 && !cancelled.includes(label); i++) await new Promise((r) => setTimeout(r, 20));
      expect(cancelled).toContain(label);
    } finally {
      await close();
    }
  });
});

describe('logging', () => {
  it('logging/setLevel turns on log notifications of the call events, filtered by level', async () => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    const pair = await stdioPair(client);
    const logs: Array<{ level: string; data: Record<string, unknown> }> = [];
    client.setNotificationHandler('notifications/message', (n) => void logs.push(n.params as never));
    try {
      await client.callTool({ name: 'hello', arguments: { name: 'quiet' } });
      expect(logs).toEqual([]);
      await client.setLoggingLevel('debug');
      await client.callTool({ name: 'hello', arguments: { name: 'Ada' } });
      await client.callTool({ name: 'hang', arguments: { label: 1 } });
      for (let i = 0; i < 50 && logs.length < 4; i++) await new Promise((r) => setTimeout(r, 10));
      expect(logs.map((l) => [l.level, l.data['event'], l.data['tool']])).toEqual([
        ['debug', 'invoked', 'hello'],
        ['info', 'result', 'hello'],
        ['debug', 'invoked', 'hang'],
        ['warning', 'failed', 'hang'],
      ]);
      expect(logs[3]?.data['reason']).toBe('TOOL_INVALID_ARGUMENTS');
      logs.length = 0;
      await client.setLoggingLevel('warning');
      await client.callTool({ name: 'hello', arguments: { name: 'Bo' } });
      await new Promise((r) => setTimeout(r, 20));
      expect(logs).toEqual([]);
    } finally {
      await pair.close();
    }
  });
});

describe('approvals through the client (elicitation)', () => {
  const withElicitation = async (answer: (params: Record<string, unknown>) => Record<string, unknown>) => {
    const asked: Array<Record<string, unknown>> = [];
    const client = new Client({ name: 'test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params as never);
      return answer(request.params as never) as never;
    });
    const pair = await stdioPair(client);
    return { client, asked, close: pair.close };
  };

  it('asks the client’s user with the question and the arguments; accept runs the call', async () => {
    const { client, asked, close } = await withElicitation(() => ({ action: 'accept', content: { path: 'notes.txt' } }));
    try {
      const r = await client.callTool({ name: 'remove', arguments: { path: 'notes.txt' } });
      expect(r.content).toEqual([{ type: 'text', text: 'removed notes.txt' }]);
      expect(asked).toHaveLength(1);
      expect(asked[0]?.['message']).toContain('"remove"');
      expect(asked[0]?.['message']).toContain('{"path":"notes.txt"}');
      expect(asked[0]?.['requestedSchema']).toEqual({
        type: 'object',
        properties: { path: { type: 'string', title: 'path', default: 'notes.txt' } },
        required: ['path'],
      });
    } finally {
      await close();
    }
  });

  it('the form’s changed arguments are the ones that run (validated again); decline refuses', async () => {
    const changed = await withElicitation(() => ({ action: 'accept', content: { path: 'draft.txt' } }));
    try {
      expect((await changed.client.callTool({ name: 'remove', arguments: { path: 'notes.txt' } })).content).toEqual([
        { type: 'text', text: 'removed draft.txt' },
      ]);
    } finally {
      await changed.close();
    }
    const declined = await withElicitation(() => ({ action: 'decline' }));
    try {
      const r = await declined.client.callTool({ name: 'remove', arguments: { path: 'notes.txt' } });
      expect(r.isError).toBe(true);
      expect((r._meta as Record<string, Record<string, unknown>>)['gramkit/error']?.['reason']).toBe(PolicyCodes.DENIED);
      expect(JSON.stringify(r.content)).toContain('declined');
    } finally {
      await declined.close();
    }
  });

  it('a client without elicitation gets the refusal saying why, as before', async () => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    const pair = await stdioPair(client);
    try {
      const r = await client.callTool({ name: 'remove', arguments: { path: 'notes.txt' } });
      expect(r.isError).toBe(true);
      expect((r._meta as Record<string, Record<string, unknown>>)['gramkit/error']?.['reason']).toBe(PolicyCodes.APPROVAL_REQUIRED);
    } finally {
      await pair.close();
    }
  });
});

describe('prompts, resources, pages', () => {
  it('agents are prompts: the instruction with the agent’s tools named, then the task', async () => {
    const c = await httpClient();
    try {
      const { prompts } = await c.listPrompts();
      expect(prompts.map((p) => [p.name, p.description])).toEqual([['helper', 'Greets people']]);
      const p = await c.getPrompt({ name: 'helper', arguments: { task: 'Say hi to Ada' } });
      const texts = p.messages.map((m) => (m.content as { text: string }).text);
      expect(texts[0]).toContain('Greet the person politely.');
      expect(texts[0]).toContain('- hello: Says hello');
      expect(texts[0]).toContain('- picture: A one-pixel picture with its size');
      expect(texts[1]).toBe('Say hi to Ada');
      await expect(c.getPrompt({ name: 'nobody' })).rejects.toThrow(/unknown prompt "nobody"; the prompts of this server are: helper/);
    } finally {
      await c.close();
    }
  });

  it('specifications are resources: gram text and JSON Schema, which parse back to the served tool', async () => {
    const c = await httpClient();
    try {
      const { resources } = await c.listResources();
      expect(resources.map((r) => r.uri)).toContain('gram://tools/hello');
      expect(resources.map((r) => r.uri)).toContain('gram://tools/hello/schema.json');
      const gram = await c.readResource({ uri: 'gram://tools/hello' });
      const text = (gram.contents[0] as { text: string }).text;
      const back = parseSpecifications(text);
      if (back._tag === 'Left') throw new Error(back.left.map((d) => d.message).join('\n'));
      const [t] = back.right.tools;
      expect([t?.name, t?.description, t?.schema, t?.outputSchema]).toEqual([
        specs.tools[0]!.name,
        specs.tools[0]!.description,
        specs.tools[0]!.schema,
        specs.tools[0]!.outputSchema,
      ]);
      const schema = JSON.parse(((await c.readResource({ uri: 'gram://tools/hello/schema.json' })).contents[0] as { text: string }).text) as Record<
        string,
        unknown
      >;
      expect(schema['inputSchema']).toEqual(specs.tools[0]!.schema);
      await expect(c.readResource({ uri: 'gram://tools/nothing' })).rejects.toThrow(/no resource gram:\/\/tools\/nothing/);
    } finally {
      await c.close();
    }
  });

  it('tools/list pages: every tool once, in order; a forged cursor is refused', async () => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    const pair = await stdioPair(client, { pageSize: 4 });
    try {
      // the SDK's listTools() follows the cursors itself: one page at a time, by hand
      const first = (await client.request({ method: 'tools/list', params: {} })) as { tools: Array<{ name: string }>; nextCursor?: string };
      expect(first.tools).toHaveLength(4);
      expect(first.nextCursor).toBeDefined();
      const second = await client.listTools({ cursor: first.nextCursor! });
      expect(second.nextCursor).toBeUndefined();
      expect([...first.tools, ...second.tools].map((t) => t.name)).toEqual(specs.tools.map((t) => t.name));
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(specs.tools.map((t) => t.name));
      await expect(client.listTools({ cursor: 'not-a-cursor' })).rejects.toThrow(/not one this server gave/);
    } finally {
      await pair.close();
    }
  });
});
