/**
 * `gramkit lsp` through a real LSP client over stdio (vscode-languageserver-protocol's connection
 * on the child's pipes): initialize, open a file with errors and get its diagnostics with their
 * codes, fix it as an editor would (an incremental change), then hover, completion, definition,
 * document symbols, formatting and rename; binding problems when the header names a library.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProtocolConnection, type ProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node.js';

const root = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');
const dir = mkdtempSync(join(tmpdir(), 'gramkit-lsp-'));

const BAD = `[greet:Tool {description: "Greets a person"} |
  (name::Strin {description: "Who to greet"})==>(::String)
]
`;
const GOOD = `[greet:Tool {description: "Greets a person"} |
  (name::String {description: "Who to greet", minLength: 1})==>(loud::Boolean {default: false})==>(::String)
]

[greeter:Agent {description: "Greets", instruction: "Greet people."} | greet]
`;

interface Published {
  readonly uri: string;
  readonly version?: number;
  readonly diagnostics: ReadonlyArray<{
    readonly code?: string;
    readonly message: string;
    readonly severity?: number;
    readonly range: { readonly start: { readonly line: number; readonly character: number } };
  }>;
}

let child: ChildProcess;
let connection: ProtocolConnection;
const published: Published[] = [];
let waiters: Array<() => void> = [];

/** The next diagnostics published for `uri` that satisfy `ok`. */
const diagnosticsFor = async (uri: string, ok: (p: Published) => boolean = () => true): Promise<Published> => {
  for (;;) {
    const found = published.find((p) => p.uri === uri && ok(p));
    if (found !== undefined) return found;
    await new Promise<void>((r) => waiters.push(r));
  }
};

beforeAll(async () => {
  child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/cli/main.ts'), 'lsp', '--stdio'], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  connection = createProtocolConnection(
    new StreamMessageReader(child.stdout as NodeJS.ReadableStream),
    new StreamMessageWriter(child.stdin as NodeJS.WritableStream),
  );
  connection.onNotification('textDocument/publishDiagnostics', (p: Published) => {
    published.push(p);
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  });
  connection.listen();
}, 60_000);

afterAll(async () => {
  await connection.sendRequest('shutdown').catch(() => undefined);
  await connection.sendNotification('exit').catch(() => undefined);
  await new Promise<void>((r) => {
    if (child.exitCode !== null) r();
    child.once('exit', () => r());
    setTimeout(() => child.kill(), 5_000).unref();
  });
  connection.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('gramkit lsp, through an LSP client over stdio', { timeout: 60_000 }, () => {
  const uri = pathToFileURL(join(dir, 'greeter.gram')).href;

  it('initializes with its capabilities', async () => {
    const r = (await connection.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(dir).href, capabilities: {} })) as {
      capabilities: Record<string, unknown>;
    };
    await connection.sendNotification('initialized', {});
    expect(r.capabilities).toMatchObject({ hoverProvider: true, definitionProvider: true, documentSymbolProvider: true, documentFormattingProvider: true });
    expect(r.capabilities['completionProvider']).toBeDefined();
    expect(r.capabilities['renameProvider']).toBeDefined();
  });

  it('publishes the diagnostics of a file with errors, with their codes, and clears them when fixed', async () => {
    await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'gram', version: 1, text: BAD } });
    const bad = await diagnosticsFor(uri, (p) => p.version === 1);
    expect(bad.diagnostics.map((d) => d.code)).toEqual(['SPEC_UNKNOWN_TYPE']);
    expect(bad.diagnostics[0]?.range.start).toEqual({ line: 1, character: 9 });
    expect(bad.diagnostics[0]?.message).toContain('String');
    // an incremental change: the editor sends the edit, not the text
    await connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ range: { start: { line: 1, character: 9 }, end: { line: 1, character: 14 } }, text: 'String' }],
    });
    expect((await diagnosticsFor(uri, (p) => p.version === 2)).diagnostics).toEqual([]);
    await connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: 3 }, contentChanges: [{ text: GOOD }] });
    expect((await diagnosticsFor(uri, (p) => p.version === 3)).diagnostics).toEqual([]);
  });

  it('hover: a tool’s JSON Schema, a parameter’s type and constraints, a type’s documentation', async () => {
    const hover = async (line: number, character: number) =>
      ((await connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line, character } })) as { contents: { value: string } } | null)
        ?.contents.value;
    const tool = await hover(0, 3);
    expect(tool).toContain('**greet** (tool): Greets a person');
    expect(tool).toContain('"minLength": 1');
    expect(tool).toContain('"required": [\n    "name"\n  ]');
    const param = await hover(1, 4);
    expect(param).toContain('**name** (parameter of greet, required)');
    expect(param).toContain('- minLength: `1`');
    expect(await hover(1, 65)).toContain('**loud** (parameter of greet, optional)');
    expect(await hover(1, 10)).toContain('**String** (type)');
    expect(await hover(4, 72)).toContain('**greet** (tool)');
  });

  it('completion: types after ::, property keys in a record, tool names in an agent', async () => {
    const labels = async (line: number, character: number) =>
      ((await connection.sendRequest('textDocument/completion', { textDocument: { uri }, position: { line, character } })) as Array<{ label: string }>).map(
        (i) => i.label,
      );
    expect(await labels(1, 9)).toEqual(expect.arrayContaining(['String', 'Integer', 'Boolean', 'Object']));
    expect(await labels(1, 17)).toEqual(expect.arrayContaining(['description', 'default', 'enum', 'minLength']));
    expect(await labels(4, 71)).toEqual(['greet']);
  });

  it('go to definition of a tool named in an agent; document symbols', async () => {
    const def = (await connection.sendRequest('textDocument/definition', { textDocument: { uri }, position: { line: 4, character: 72 } })) as {
      uri: string;
      range: unknown;
    };
    expect(def).toEqual({ uri, range: { start: { line: 0, character: 1 }, end: { line: 0, character: 6 } } });
    const symbols = (await connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } })) as Array<{ name: string; detail: string }>;
    expect(symbols.map((s) => [s.name, s.detail])).toEqual([
      ['greet', 'Tool'],
      ['greeter', 'Agent'],
    ]);
  });

  it('formatting gives what gramkit fmt gives', async () => {
    const edits = (await connection.sendRequest('textDocument/formatting', { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } })) as Array<{
      newText: string;
    }>;
    expect(edits).toHaveLength(1);
    expect(edits[0]?.newText).toContain('(name::String {description: "Who to greet", minLength: 1}) ==>\n');
  });

  it('rename: a tool everywhere it is used, a parameter within its tool, never inside strings', async () => {
    const rename = async (line: number, character: number, newName: string) =>
      (
        (await connection.sendRequest('textDocument/rename', { textDocument: { uri }, position: { line, character }, newName })) as {
          changes: Record<string, Array<{ range: { start: { line: number; character: number } } }>>;
        }
      ).changes[uri] ?? [];
    expect((await rename(0, 2, 'welcome')).map((e) => e.range.start)).toEqual([
      { line: 0, character: 1 },
      { line: 4, character: 71 },
    ]);
    expect((await rename(1, 4, 'person')).map((e) => e.range.start)).toEqual([{ line: 1, character: 3 }]);
  });

  it('binding problems when the header names a library', async () => {
    writeFileSync(join(dir, 'lib.mjs'), "export default [{ name: 'greet', description: 'Says hello', schema: { type: 'object' }, invoke: () => 'hi' }];\n");
    const bound = pathToFileURL(join(dir, 'bound.gram')).href;
    await connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri: bound, languageId: 'gram', version: 1, text: `{library: "./lib.mjs"}\n\n${GOOD}` },
    });
    const r = await diagnosticsFor(bound);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['TOOL_MISMATCH']);
    expect(r.diagnostics[0]?.range.start).toEqual({ line: 2, character: 1 });
  });
});
