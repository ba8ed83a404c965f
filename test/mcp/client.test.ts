/**
 * The MCP client: a server's tools become specifications (through the importer) bound to remote
 * implementations. Laws: a specification served over MCP and imported back is the same
 * specification; invoking through MCP gives the result of invoking locally.
 */
import { existsSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bindAll,
  bindTool,
  createTool,
  lookupTool,
  createToolSpecification,
  invoke,
  printSpecifications,
  ToolCodes,
  type ToolSpecification,
  toolLibrary,
} from '../../src/index.js';
import { printSignature } from '../../src/entries/types.js';
import { isValidToolName } from '../../src/entries/providers.js';
import { connectMcp, createMcpHttpHandler, type McpConnection, McpCodes, parseMcpAddress, servedTools, staticToolSource } from '../../src/entries/mcp.js';
import { toMcpCallResult, valueOf } from '../../src/mcp/call-result.js';
import { importMcpTools } from '../../src/mcp/import-tools.js';
import { valueArbitrary } from '../../src/testing/arbitrary.js';
import { nameArb, signatureArb, textArb } from '../spec/support/arbitraries.js';
import { CLI, fixtureTools, listen, type Listening } from './support.js';

let server: Listening;
let handler: ReturnType<typeof createMcpHttpHandler>;
let connection: McpConnection;

beforeAll(async () => {
  handler = createMcpHttpHandler(staticToolSource(fixtureTools()));
  server = await listen(handler.node);
  const c = await connectMcp(`mcp:${server.url.href}`);
  if (c._tag === 'Left') throw new Error(c.left.map((d) => d.message).join('\n'));
  connection = c.right;
});
afterAll(async () => {
  await connection.close();
  await handler.close();
  await server.close();
});

describe('addresses', () => {
  it('reads mcp:<url> and mcp+stdio:<command line> (words as a shell splits them, NAME=value before)', () => {
    expect(parseMcpAddress('mcp:http://127.0.0.1:3000/mcp')).toMatchObject({ _tag: 'Right', right: { kind: 'http', url: 'http://127.0.0.1:3000/mcp' } });
    expect(parseMcpAddress(`mcp+stdio:DEBUG=1 node "my server.js" --flag 'a b'`)).toMatchObject({
      _tag: 'Right',
      right: { kind: 'stdio', command: 'node', args: ['my server.js', '--flag', 'a b'], env: { DEBUG: '1' } },
    });
    for (const bad of ['mcp:', 'mcp:ftp://x', 'mcp+stdio:', 'mcp+stdio:a | b', 'mcp+stdio:a > out', 'file.gram']) {
      const r = parseMcpAddress(bad);
      expect(r._tag === 'Left' && r.left.code, bad).toBe(McpCodes.INVALID_ADDRESS);
    }
  });
});

describe('a server’s tools as specifications', () => {
  it('imports every tool: the same specifications the server was made from', () => {
    const local = fixtureTools().tools.map((b) => b.spec);
    expect(connection.server.name).toBe('gramkit');
    expect(connection.specifications.map((s) => s.name)).toEqual(local.map((s) => s.name));
    for (const [i, s] of connection.specifications.entries()) {
      const l = local[i] as ToolSpecification;
      expect(s.description).toBe(l.description);
      expect(s.schema).toEqual(l.schema);
      expect(s.outputSchema).toEqual(l.outputSchema);
    }
    expect(connection.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('binds the local specifications to the remote library, and calls give the local results', async () => {
    const local = fixtureTools();
    const remote = bindAll(
      local.tools.map((b) => b.spec),
      connection.library,
    );
    expect(remote._tag, JSON.stringify(remote)).toBe('Right');
    if (remote._tag === 'Left') return;
    const calls: Array<[string, unknown]> = [
      ['get_weather', { city: 'London', days: 3 }],
      ['get_weather', { city: 'Paris' }],
      ['get_weather', { city: '' }],
      ['shout', { text: 'mcp' }],
      ['shout', { text: 42 }],
      ['lookup', { word: 'gram' }],
    ];
    for (const [name, args] of calls) {
      const here = await invoke(local.byName.get(name)!, args);
      const there = await invoke(remote.right.byName.get(name)!, args);
      expect(there, `${name} ${JSON.stringify(args)}`).toEqual(here);
    }
  });

  it('remote tools carry the server’s safety level and approval; their permissions are the user’s grant (issue 18)', () => {
    const erase = lookupTool('erase', connection.library);
    // the server claims fs:write; without a grant the client takes it for a tool that may do anything
    expect(erase?.annotations).toEqual({ permissions: ['*'], safetyLevel: 'high', approval: 'confirm' });
  });

  it('a timeout cancels the remote call; a closed connection is a retryable transport error', async () => {
    const spec = connection.specifications.find((s) => s.name === 'wait_for_cancel')!;
    const bound = bindTool(spec, connection.library);
    if (bound._tag === 'Left') throw new Error(bound.left.map((e) => e.message).join('; '));
    const r = await invoke(bound.right, { label: 'x' }, { timeoutMs: 50 });
    expect(r.ok || r.error.reason).toBe(ToolCodes.TIMEOUT);
    const c = await connectMcp(`mcp:${server.url.href}`);
    if (c._tag === 'Left') throw new Error('no connection');
    const shout = bindTool(c.right.specifications.find((s) => s.name === 'shout')!, c.right.library);
    await c.right.close();
    if (shout._tag === 'Left') throw new Error(shout.left.map((e) => e.message).join('; '));
    const closed = await invoke(shout.right, { text: 'x' });
    expect(closed.ok || [closed.error.reason, closed.error.retryable]).toEqual([McpCodes.TRANSPORT_ERROR, true]);
  });

  it('a server that cannot be reached is a diagnostic, not a rejection', async () => {
    const down = await listen(() => undefined);
    const url = down.url.href;
    await down.close();
    const r = await connectMcp(`mcp:${url}`, { timeoutMs: 5000 });
    expect(r._tag === 'Left' && r.left[0]?.code).toBe(McpCodes.CONNECT_FAILED);
    const s = await connectMcp('mcp+stdio:node -e "process.stderr.write(\'no MCP here\'); process.exit(3)"');
    expect(s._tag === 'Left' && [s.left[0]?.code, s.left[0]?.hint]).toEqual([McpCodes.CONNECT_FAILED, 'the server wrote on stderr:\nno MCP here']);
  });
});

describe('stdio', () => {
  it('starts `gramkit mcp` as a child, calls it, and ends its process on close', async () => {
    expect(existsSync(CLI), 'npm run build first').toBe(true);
    const c = await connectMcp(`mcp+stdio:node ${CLI} mcp test/fixtures/mcp/tools.gram --no-watch`);
    if (c._tag === 'Left') throw new Error(c.left.map((d) => `${d.message} ${d.hint}`).join('\n'));
    const shout = bindTool(c.right.specifications.find((s) => s.name === 'shout')!, c.right.library);
    if (shout._tag === 'Left') throw new Error(shout.left.map((e) => e.message).join('; '));
    expect(await invoke(shout.right, { text: 'over stdio' })).toEqual({ ok: true, value: 'OVER STDIO' });
    await c.right.close();
    const again = await invoke(shout.right, { text: 'x' });
    expect(again.ok || again.error.reason).toBe(McpCodes.TRANSPORT_ERROR);
  });
});

// -------------------------------------------------------------------------------------------------
// laws
// -------------------------------------------------------------------------------------------------

const specArb = fc
  .tuple(
    nameArb.filter((n) => isValidToolName(n, 'mcp')),
    textArb.filter((d) => d.trim() !== ''),
    signatureArb,
  )
  .map(([name, description, sig]) => {
    const r = createToolSpecification(name, description, printSignature(sig, { names: 'paramName' }));
    if (r._tag === 'Left') throw new Error(JSON.stringify(r.left));
    return r.right;
  });

const echoOf = (spec: ToolSpecification) => createTool(spec.name, spec.description, spec.schema, (args: unknown) => args);

describe('laws', { timeout: 120_000 }, () => {
  it('spec → MCP tool definition → imported spec is the same specification (name, description, schemas)', () => {
    fc.assert(
      fc.property(specArb, (spec) => {
        const bound = bindTool(spec, toolLibrary([echoOf(spec)]));
        if (bound._tag === 'Left') throw new Error(bound.left.map((e) => e.message).join('; '));
        const served = servedTools([bound.right]);
        const [definition] = served.definitions;
        const imported = importMcpTools([definition!]);
        const back = imported.tools[0]?.spec;
        expect(back, `${printSpecifications({ tools: [spec] })}\n${JSON.stringify(imported.tools[0]?.diagnostics)}`).toBeDefined();
        expect(back?.name).toBe(spec.name);
        expect(back?.description).toBe(spec.description);
        expect(back?.schema).toEqual(spec.schema);
        expect(back?.outputSchema).toEqual(spec.outputSchema);
      }),
      { numRuns: 150 },
    );
  });

  it('a string result reads back as that string; the text marker is there whenever the text parses as JSON', () => {
    const jsonText = fc.jsonValue({ maxDepth: 2 }).chain((v) => fc.constantFrom(JSON.stringify(v), ` ${JSON.stringify(v)}`, `\n${JSON.stringify(v)}\t`));
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), jsonText), (s) => {
        const result = toMcpCallResult({ ok: true, value: s }, false);
        const wire = JSON.parse(JSON.stringify(result)) as Record<string, unknown>;
        expect(valueOf(wire)).toBe(s);
        let parses = true;
        try {
          JSON.parse(s);
        } catch {
          parses = false;
        }
        if (parses) expect(result._meta).toEqual({ 'gramkit/text': true });
      }),
      { numRuns: 500 },
    );
  });

  it('invoke through MCP equals invoke locally, for generated arguments', async () => {
    const weather = fixtureTools().byName.get('get_weather')!;
    const remote = bindTool(weather.spec, connection.library);
    if (remote._tag === 'Left') throw new Error(remote.left.map((e) => e.message).join('; '));
    const args = weather.spec.signature!.args;
    await fc.assert(
      fc.asyncProperty(fc.oneof(valueArbitrary(args), fc.jsonValue({ maxDepth: 2 })), async (a) => {
        expect(await invoke(remote.right, a)).toEqual(await invoke(weather, a));
      }),
      { numRuns: 60 },
    );
  });
});
