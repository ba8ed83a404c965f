import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindAll, invokeByName, librarySize, toolNames, type JsonObject, type ToolSpecification } from '../../src/index.js';
import { declarativeLibrary, declaredKind, declaredTool } from '../../src/entries/tools.js';
import { json, startServer, type TestServer } from './server-support.js';

let api: TestServer;
const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'gramkit-decl-')));
beforeAll(async () => {
  api = await startServer((req, res) => json(res, 200, { path: req.url, auth: req.headers['authorization'] }));
});
afterAll(async () => {
  await api.close();
  rmSync(workspace, { recursive: true, force: true });
});

/** A specification as the spec layer builds it from `[name:Tool {description, ...metadata} | signature]`. */
const spec = (name: string, properties: JsonObject, metadata?: JsonObject): ToolSpecification => ({
  name,
  description: `tool ${name}`,
  typeSignature: '',
  schema: { type: 'object', properties, required: Object.keys(properties), additionalProperties: false },
  outputSchema: {},
  ...(metadata !== undefined ? { metadata } : {}),
});

describe('declarative tools from specification metadata', () => {
  const specs = (): ToolSpecification[] => [
    spec('lookup', { id: { type: 'string' } }, { http: { urlTemplate: `${api.origin}/items/\${id}`, headers: { Authorization: 'Token ${TOKEN}' } } }),
    spec('upper', { text: { type: 'string' } }, { command: { argv: ['tr', 'a-z', 'A-Z'], stdin: 'text', env: ['PATH'], output: 'text' } }),
    spec('native', { x: { type: 'number' } }),
  ];
  const options = { secrets: (n: string) => (n === 'TOKEN' ? 'tok-123' : undefined), workspace, env: { PATH: '/usr/bin:/bin' } };

  it('builds one library from the http and command tools, leaving the others out', async () => {
    const lib = declarativeLibrary(specs(), options);
    if (lib._tag === 'Left') throw new Error(JSON.stringify(lib.left));
    expect(librarySize(lib.right)).toBe(2);
    expect([...toolNames(lib.right)].sort()).toEqual(['lookup', 'upper']);
    expect(specs().map(declaredKind)).toEqual(['http', 'command', undefined]);

    const bound = bindAll(specs().slice(0, 2), lib.right);
    if (bound._tag === 'Left') throw new Error(JSON.stringify(bound.left));
    const looked = await invokeByName(bound.right, 'lookup', { id: 'a/b' });
    expect(looked).toEqual({ ok: true, value: { path: '/items/a%2Fb', auth: 'Token [REDACTED]' } });
    expect(await invokeByName(bound.right, 'upper', { text: 'shout' })).toEqual({ ok: true, value: { output: 'SHOUT' } });
  });

  it('reports the problems of every tool at once', () => {
    const bad = [
      spec('a', {}, { http: { urlTemplate: 'ftp://x' } }),
      spec('b', { p: { type: 'string' } }, { command: { argv: ['{p}'] } }),
      spec('c', {}, { http: { urlTemplate: 'https://x.example' }, command: { argv: ['true'] } }),
      spec('d', {}, { http: 'https://x.example' }),
    ];
    const lib = declarativeLibrary(bad, options);
    expect(lib._tag === 'Left' && lib.left.map((d) => d.code)).toEqual(['HTTP_URL_SCHEME', 'COMMAND_PROGRAM_PLACEHOLDER', 'IMPL_CONFLICT', 'HTTP_CONFIG_TYPE']);
    expect(lib._tag === 'Left' && lib.left[0]!.message).toContain('tool "a"');
  });

  it('a command tool needs a workspace', () => {
    const t = declaredTool(specs()[1]!, {});
    expect(t?._tag === 'Left' && t.left.map((d) => d.code)).toEqual(['COMMAND_WORKSPACE_REQUIRED']);
    expect(declaredTool(specs()[2]!, {})).toBeUndefined();
  });
});
