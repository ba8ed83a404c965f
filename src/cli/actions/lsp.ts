/**
 * `gramkit lsp`: the Language Server Protocol over stdio, for `.gram` files (vscode-languageserver,
 * loaded only by this command).
 *
 * - diagnostics as the text changes: everything `gramkit check` reports (its pipeline,
 *   `checkSource`, with the codes), and the binding when the file's header names a library;
 * - hover: a tool's compiled JSON Schema, a parameter's type, default and constraints, a type's
 *   documentation;
 * - completion: type names after `::`, property keys inside `{…}`, tool names in an agent;
 * - go to definition of a tool named in an agent; document symbols (tools and agents);
 * - formatting (`gramkit fmt`); rename of a tool or a parameter (every whole-word use outside strings).
 *
 * The file's specifications are those of its last text that loaded, so hover and completion keep
 * working while a change is half typed. Each open document keeps its compiled tools from one change
 * to the next (specification/compile-cache.ts): a change recompiles only the tools whose text it touched.
 */
import { analyzeGram } from '../../gram/parse.js';
import { formatGram } from '../../gram/print.js';
import { lineIndex, positionAt } from '../../core/span.js';
import { type Diagnostic as GramDiagnostic, error } from '../../core/diagnostic.js';
import { CliCodes } from '../codes.js';
import type { JsonValue } from '../../core/json-schema.js';
import { isRecord } from '../../core/json.js';
import { KEYWORDS } from '../../types/keywords.js';
import { TYPE_NAMES } from '../../types/type-expr.js';
import type { Specifications } from '../../specification/specifications.js';
import type { SpecSource } from './spec-source.js';
import { checkSource } from './check.js';
import { EXIT_OK, type CommandContext } from '../context.js';
import { isLeft } from '../../core/either.js';
import { CompileCache } from '../../specification/compile-cache.js';

// -------------------------------------------------------------------------------------------------
// what the server knows of a document
// -------------------------------------------------------------------------------------------------

const TYPE_DOCS: Readonly<Record<string, string>> = {
  String: 'Text (JSON Schema `"type": "string"`). Keywords: minLength, maxLength, pattern, format, enum.',
  Integer: 'A whole number (`"type": "integer"`). Keywords: minimum, maximum, range (`1..10`), multipleOf.',
  Number: 'A number (`"type": "number"`). Keywords: minimum, maximum, range, multipleOf.',
  Boolean: '`true` or `false` (`"type": "boolean"`).',
  Null: 'Only `null`.',
  Any: 'Any JSON value (no `type`).',
  Object: 'A record (`"type": "object"`); its fields in `type: "{name: String, age: Maybe Integer}"` or `fields: [...]`.',
  Array: 'A list (`"type": "array"`); its items in `elementType` or written `[T]`. Keywords: minItems, maxItems, uniqueItems.',
};

/** Property keys offered inside a record: the spec's own, then the type keywords. */
const PROPERTY_KEYS = [
  'description',
  'default',
  'enum',
  'optional',
  'type',
  'elementType',
  'fields',
  'range',
  'examples',
  'instruction',
  'model',
  'library',
  'http',
  'command',
  ...KEYWORDS.map((k) => k.name),
];

interface Definition {
  readonly name: string;
  readonly kind: 'Tool' | 'Agent';
  /** Offsets of the name in the text. */
  readonly start: number;
  readonly end: number;
  /** Where the pattern ends (the next `[` at the start of a line, or the end). */
  readonly blockEnd: number;
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Tools and agents written in the text: `[name:Tool`, `[name:ToolSpecification`, `[name:Agent`. */
const definitionsOf = (text: string): Definition[] => {
  const out: Definition[] = [];
  const re = /^\s*\[\s*([A-Za-z_][\w.-]*)\s*:\s*(ToolSpecification|Tool|Agent)\b/gm;
  const starts: number[] = [];
  for (const m of text.matchAll(re)) starts.push(m.index ?? 0);
  let i = 0;
  for (const m of text.matchAll(re)) {
    const name = m[1] as string;
    const start = (m.index ?? 0) + (m[0] as string).indexOf(name);
    out.push({ name, kind: m[2] === 'Agent' ? 'Agent' : 'Tool', start, end: start + name.length, blockEnd: starts[i + 1] ?? text.length });
    i++;
  }
  return out;
};

/** The identifier around an offset, with its extent. */
const wordAt = (text: string, offset: number): { readonly word: string; readonly start: number; readonly end: number } | undefined => {
  let s = offset;
  let e = offset;
  while (s > 0 && /[\w.-]/.test(text[s - 1] as string)) s--;
  while (e < text.length && /[\w-]/.test(text[e] as string)) e++;
  const word = text.slice(s, e).replace(/^[.-]+|[.-]+$/g, '');
  return word === '' ? undefined : { word, start: s, end: e };
};

/** Offsets of string literals (so that rename leaves text alone). */
const stringRanges = (text: string): Array<readonly [number, number]> =>
  [...text.matchAll(/```[\s\S]*?```|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\\n]|\\.)*`|\/\/[^\n]*/g)].map(
    (m) => [m.index ?? 0, (m.index ?? 0) + (m[0] as string).length] as const,
  );

const schemaOf = (v: JsonValue | undefined): Record<string, JsonValue> | undefined => (isRecord(v) ? (v as Record<string, JsonValue>) : undefined);

// -------------------------------------------------------------------------------------------------
// the server
// -------------------------------------------------------------------------------------------------

export const action = async (ctx: CommandContext): Promise<number> => {
  const lsp = await import('vscode-languageserver/node.js');
  const { TextDocument } = await import('vscode-languageserver-textdocument');
  const connection = lsp.createConnection(lsp.ProposedFeatures.all, process.stdin, process.stdout);
  const documents = new lsp.TextDocuments(TextDocument);
  /** The last specifications of each document that loaded. */
  const lastSpecs = new Map<string, Specifications>();
  const versions = new Map<string, number>();
  /** Each document's compiled tools, kept from one change to the next: a change recompiles the tools it touched. */
  const caches = new Map<string, CompileCache>();

  const pathOf = (uri: string): string | undefined => (uri.startsWith('file://') ? decodeURIComponent(new URL(uri).pathname) : undefined);

  const toRange = (text: string, index: ReturnType<typeof lineIndex>, start: number, end: number) => {
    const a = positionAt(index, Math.min(start, text.length));
    const b = positionAt(index, Math.min(end, text.length));
    return { start: { line: a.line - 1, character: a.column - 1 }, end: { line: b.line - 1, character: b.column - 1 } };
  };
  const offsetOf = (doc: { offsetAt: (p: { line: number; character: number }) => number }, p: { line: number; character: number }): number => doc.offsetAt(p);

  const validate = async (doc: { uri: string; version: number; getText: () => string }): Promise<void> => {
    const text = doc.getText();
    versions.set(doc.uri, doc.version);
    const path = pathOf(doc.uri);
    const source: SpecSource = { name: path ?? doc.uri, text, builtin: false, format: 'gram', ...(path !== undefined ? { path } : {}) };
    let ds: ReadonlyArray<GramDiagnostic>;
    try {
      const cache = caches.get(doc.uri) ?? new CompileCache();
      caches.set(doc.uri, cache);
      const checked = await checkSource(ctx, source, { cache, headerLibrary: true }, ctx.io.cwd);
      ds = checked.diagnostics;
      if (checked.specs !== undefined) lastSpecs.set(doc.uri, checked.specs);
    } catch (e) {
      ds = [error(CliCodes.LSP_CHECK_FAILED, `gramkit lsp: checking the document failed: ${(e as Error).message}`)];
    }
    if (versions.get(doc.uri) !== doc.version) return; // a newer text is being checked
    const index = lineIndex(text);
    const diagnostics = ds.map((d) => ({
      range: d.span !== undefined ? toRange(text, index, d.span.start, d.span.end) : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      severity:
        d.severity === 'error' ? lsp.DiagnosticSeverity.Error : d.severity === 'warning' ? lsp.DiagnosticSeverity.Warning : lsp.DiagnosticSeverity.Information,
      code: d.code,
      source: 'gramkit',
      message: d.hint !== undefined ? `${d.message}\nhint: ${d.hint}` : d.message,
    }));
    await connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics });
  };

  connection.onInitialize(() => ({
    capabilities: {
      textDocumentSync: lsp.TextDocumentSyncKind.Incremental,
      hoverProvider: true,
      completionProvider: { triggerCharacters: [':', '{', ' ', '|', ','] },
      definitionProvider: true,
      documentSymbolProvider: true,
      documentFormattingProvider: true,
      renameProvider: { prepareProvider: false },
    },
    serverInfo: { name: 'gramkit' },
  }));

  documents.onDidChangeContent((e) => void validate(e.document));
  documents.onDidClose((e) => {
    lastSpecs.delete(e.document.uri);
    caches.delete(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  connection.onHover((p) => {
    const doc = documents.get(p.textDocument.uri);
    if (doc === undefined) return null;
    const text = doc.getText();
    const w = wordAt(text, offsetOf(doc, p.position));
    if (w === undefined) return null;
    const specs = lastSpecs.get(doc.uri);
    const range = toRange(text, lineIndex(text), w.start, w.end);
    const tool = specs?.tools.find((t) => t.name === w.word) ?? specs?.agents.flatMap((a) => a.tools).find((t) => t.name === w.word);
    if (tool !== undefined) {
      return {
        range,
        contents: { kind: 'markdown', value: `**${tool.name}** (tool): ${tool.description}\n\n\`\`\`json\n${JSON.stringify(tool.schema, null, 2)}\n\`\`\`` },
      };
    }
    // a parameter: the tool whose block holds the position
    const offset = offsetOf(doc, p.position);
    const block = definitionsOf(text).find((d) => d.kind === 'Tool' && d.start <= offset && offset < d.blockEnd);
    const owner = block !== undefined ? specs?.tools.find((t) => t.name === block.name) : undefined;
    const prop = schemaOf(schemaOf(owner?.schema['properties' as never] as JsonValue)?.[w.word]);
    if (owner !== undefined && prop !== undefined) {
      const required = Array.isArray(owner.schema['required' as never]) && (owner.schema['required' as never] as string[]).includes(w.word);
      const facts = Object.entries(prop)
        .filter(([k]) => k !== 'description')
        .map(([k, v]) => `- ${k}: \`${JSON.stringify(v)}\``);
      return {
        range,
        contents: {
          kind: 'markdown',
          value: [
            `**${w.word}** (parameter of ${owner.name}${required ? ', required' : ', optional'})`,
            ...(typeof prop['description'] === 'string' ? ['', prop['description']] : []),
            '',
            ...facts,
          ].join('\n'),
        },
      };
    }
    const kind = TYPE_NAMES[w.word];
    if (kind !== undefined)
      return {
        range,
        contents: { kind: 'markdown', value: `**${w.word}** (type${kind !== w.word ? `, the same as ${kind}` : ''}): ${TYPE_DOCS[kind] ?? ''}` },
      };
    return null;
  });

  connection.onCompletion((p) => {
    const doc = documents.get(p.textDocument.uri);
    if (doc === undefined) return [];
    const text = doc.getText();
    const offset = offsetOf(doc, p.position);
    const line = text.slice(text.lastIndexOf('\n', offset - 1) + 1, offset);
    const specs = lastSpecs.get(doc.uri);
    const toolNames = [
      ...new Set([
        ...definitionsOf(text)
          .filter((d) => d.kind === 'Tool')
          .map((d) => d.name),
        ...(specs?.tools.map((t) => t.name) ?? []),
      ]),
    ];
    if (/::?\s*\w*$/.test(line) && !/\{[^}]*$/.test(line)) {
      return Object.keys(TYPE_NAMES).map((t) => ({
        label: t,
        kind: lsp.CompletionItemKind.TypeParameter,
        detail: 'type',
        documentation: TYPE_DOCS[TYPE_NAMES[t] as string] ?? '',
      }));
    }
    // inside an agent's elements: after `|`, in the agent's block
    const agent = definitionsOf(text).find((d) => d.kind === 'Agent' && d.start <= offset && offset <= d.blockEnd);
    const between = agent !== undefined ? text.slice(agent.end, offset) : '';
    if (agent !== undefined && /\}\s*\|[^\]]*$/.test(between))
      return toolNames.map((t) => ({ label: t, kind: lsp.CompletionItemKind.Function, detail: 'tool' }));
    const opened = text.slice(0, offset).lastIndexOf('{');
    const closed = text.slice(0, offset).lastIndexOf('}');
    if (opened > closed) return [...new Set(PROPERTY_KEYS)].map((k) => ({ label: k, kind: lsp.CompletionItemKind.Property, insertText: `${k}: ` }));
    return [];
  });

  connection.onDefinition((p) => {
    const doc = documents.get(p.textDocument.uri);
    if (doc === undefined) return null;
    const text = doc.getText();
    const w = wordAt(text, offsetOf(doc, p.position));
    const def = w !== undefined ? definitionsOf(text).find((d) => d.name === w.word) : undefined;
    return def === undefined ? null : { uri: doc.uri, range: toRange(text, lineIndex(text), def.start, def.end) };
  });

  connection.onDocumentSymbol((p) => {
    const doc = documents.get(p.textDocument.uri);
    if (doc === undefined) return [];
    const text = doc.getText();
    const index = lineIndex(text);
    return definitionsOf(text).map((d) => ({
      name: d.name,
      detail: d.kind,
      kind: d.kind === 'Agent' ? lsp.SymbolKind.Class : lsp.SymbolKind.Function,
      range: toRange(text, index, d.start, d.blockEnd),
      selectionRange: toRange(text, index, d.start, d.end),
    }));
  });

  connection.onDocumentFormatting((p) => {
    const doc = documents.get(p.textDocument.uri);
    if (doc === undefined) return [];
    const text = doc.getText();
    const parsed = analyzeGram(text);
    if (isLeft(parsed)) return [];
    const formatted = formatGram(parsed.right.value);
    return formatted === text ? [] : [{ range: toRange(text, lineIndex(text), 0, text.length), newText: formatted }];
  });

  connection.onRenameRequest((p) => {
    const doc = documents.get(p.textDocument.uri);
    if (doc === undefined) return null;
    const text = doc.getText();
    const offset = offsetOf(doc, p.position);
    const w = wordAt(text, offset);
    if (w === undefined || !/^[A-Za-z_][\w]*$/.test(p.newName)) return null;
    const defs = definitionsOf(text);
    // a tool: every use in the file; a parameter: the uses within its tool
    const isTool = defs.some((d) => d.name === w.word && d.kind === 'Tool');
    const block = isTool ? undefined : defs.find((d) => d.start <= offset && offset < d.blockEnd);
    const [from, to] = block !== undefined ? [block.start, block.blockEnd] : [0, text.length];
    const strings = stringRanges(text);
    const index = lineIndex(text);
    const edits = [...text.slice(from, to).matchAll(new RegExp(`(?<![\\w.-])${escapeRe(w.word)}(?![\\w-])`, 'g'))]
      .map((m) => from + (m.index ?? 0))
      .filter((at) => !strings.some(([s, e]) => at >= s && at < e))
      .map((at) => ({ range: toRange(text, index, at, at + w.word.length), newText: p.newName }));
    return { changes: { [doc.uri]: edits } };
  });

  documents.listen(connection);
  const exited = new Promise<void>((resolve) => connection.onExit(() => resolve()));
  connection.listen();
  await exited;
  return EXIT_OK;
};
