/**
 * Importing tool definitions from other formats into gram specifications: JSON Schema (2020-12 and
 * draft-07), OpenAI function definitions (Chat Completions `{type: "function", function}` and the
 * flat Responses form), MCP tool definitions (`inputSchema`, `outputSchema`), Anthropic tools
 * (`input_schema`) and BFCL's dialect.
 *
 * The input is one definition, an array, a list such as `{tools: [...]}` (an MCP `tools/list`
 * result, an OpenAI request), BFCL entries (`{function: [...]}`), or JSON lines. Each definition is
 * imported on its own: what cannot be imported is reported with its reason, the rest is kept.
 * Properties of a definition that are not its name, description or schemas (`strict`,
 * `annotations`, `title`, ...) become the specification's metadata.
 *
 * Every imported signature is printed to gram and parsed back before it is accepted, so the text
 * written is known to compile to the imported type.
 */
import { checkedDiagnostics, checkedValue } from '../core/either.js';
import { jsonEqual } from '../core/json-equal.js';
import { type Diagnostic, error, info } from '../core/diagnostic.js';
import { BFCL_TYPES } from '../schema/bfcl.js';
import { type SchemaDialect, checkSignatureFromJsonSchemas } from '../schema/from-json-schema.js';
import { ImportCodes } from '../types/codes.js';
import { isJsonObject, setOwn } from '../core/json.js';
import type { JsonObject, JsonValue } from '../core/json-schema.js';
import { printSignature } from '../types/print-signature.js';
import { printSpecifications } from './serialize.js';
import { checkTypeSignature } from './signature.js';
import { type ToolSpecification, makeToolSpecification } from './tool-spec.js';
import { type TypeSignature, signatureEquals } from '../types/types.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export type ImportFormat = 'jsonschema' | 'openai' | 'mcp' | 'bfcl' | 'anthropic';

export const IMPORT_FORMATS: ReadonlyArray<ImportFormat> = ['jsonschema', 'openai', 'mcp', 'bfcl', 'anthropic'];

export interface ImportOptions {
  /** The format of every definition; detected per definition when absent. */
  readonly from?: ImportFormat;
  /** The name of a bare JSON Schema without `title` (e.g. from the file name). */
  readonly name?: string;
  readonly file?: string;
  /** Repair schemas whose intent is clear but whose letter accepts nothing (each repair a warning). */
  readonly repair?: boolean;
}

/** The outcome for one definition. */
export interface ImportedTool {
  /** The tool's name (or `#n` when the definition has none). */
  readonly name: string;
  readonly format: ImportFormat;
  /** The specification, when the definition could be imported. */
  readonly spec?: ToolSpecification;
  /** Why it could not be imported (errors), and what changed on the way (warnings, notes). */
  readonly diagnostics: ReadonlyArray<Diagnostic>;
}

export interface ImportReport {
  readonly tools: ReadonlyArray<ImportedTool>;
  /** Problems of the input as a whole (not JSON, no definitions found). */
  readonly diagnostics: ReadonlyArray<Diagnostic>;
  /** One gram document with every imported tool. */
  readonly gram: string;
}

interface Definition {
  readonly value: JsonObject;
  /** Where it sits in the input, for messages (`[3]`, `line 4`, `tools[2]`). */
  readonly at: string;
  /** A format implied by the container (BFCL entries). */
  readonly format?: ImportFormat;
}

const IMPORT_INVALID_INPUT = ImportCodes.INVALID_INPUT;
const IMPORT_UNKNOWN_SHAPE = ImportCodes.UNKNOWN_SHAPE;
const IMPORT_MISSING_NAME = ImportCodes.MISSING_NAME;
const IMPORT_MISSING_DESCRIPTION = ImportCodes.MISSING_DESCRIPTION;
const IMPORT_DUPLICATE = ImportCodes.DUPLICATE;
const IMPORT_ROUND_TRIP = ImportCodes.ROUND_TRIP;

// -------------------------------------------------------------------------------------------------
// input
// -------------------------------------------------------------------------------------------------

/** The JSON values of an input: one JSON document, or JSON lines. */
export const parseImportInput = (
  text: string,
  file?: string,
): { readonly values: ReadonlyArray<{ readonly value: unknown; readonly at: string }>; readonly diagnostics: ReadonlyArray<Diagnostic> } => {
  const fileOpt = file !== undefined ? { file } : {};
  if (text.trim() === '') return { values: [], diagnostics: [error(IMPORT_INVALID_INPUT, 'the input is empty', fileOpt)] };
  try {
    return { values: [{ value: JSON.parse(text), at: '' }], diagnostics: [] };
  } catch (whole) {
    const lines = text.split(/\r?\n/);
    const values: Array<{ value: unknown; at: string }> = [];
    const diagnostics: Diagnostic[] = [];
    let nonEmpty = 0;
    lines.forEach((l, i) => {
      if (l.trim() === '') return;
      nonEmpty++;
      try {
        values.push({ value: JSON.parse(l), at: `line ${i + 1}` });
      } catch (e) {
        diagnostics.push(error(IMPORT_INVALID_INPUT, `line ${i + 1} is not JSON: ${(e as Error).message}`, fileOpt));
      }
    });
    if (nonEmpty <= 1) return { values: [], diagnostics: [error(IMPORT_INVALID_INPUT, `the input is not JSON: ${(whole as Error).message}`, fileOpt)] };
    return { values, diagnostics };
  }
};

/** The definitions inside a value: unwraps arrays, `{tools: [...]}`, `{functions: [...]}`, BFCL entries. */
const definitionsOf = (value: unknown, at: string, out: Definition[], problems: Diagnostic[], file?: string): void => {
  const where = (s: string) => (at === '' ? s : `${at}${s.startsWith('[') ? '' : '.'}${s}`);
  if (Array.isArray(value)) {
    value.forEach((v, i) => definitionsOf(v, where(`[${i}]`), out, problems, file));
    return;
  }
  if (!isJsonObject(value)) {
    problems.push(
      error(
        IMPORT_UNKNOWN_SHAPE,
        `${at === '' ? 'the input' : at} is not a tool definition (an object), got ${JSON.stringify(value)?.slice(0, 40)}`,
        file !== undefined ? { file } : {},
      ),
    );
    return;
  }
  if (Array.isArray(value['function']) && value['name'] === undefined) {
    // a BFCL entry: {id, question, function: [...]}
    (value['function'] as unknown[]).forEach((f, i) => {
      if (isJsonObject(f)) out.push({ value: f, at: where(`function[${i}]`), format: 'bfcl' });
      else problems.push(error(IMPORT_UNKNOWN_SHAPE, `${where(`function[${i}]`)} is not an object`, file !== undefined ? { file } : {}));
    });
    return;
  }
  for (const key of ['tools', 'functions', 'functionDeclarations']) {
    if (Array.isArray(value[key]) && value['name'] === undefined && value['type'] === undefined) {
      (value[key] as unknown[]).forEach((v, i) => definitionsOf(v, where(`${key}[${i}]`), out, problems, file));
      return;
    }
  }
  out.push({ value, at });
};

// -------------------------------------------------------------------------------------------------
// formats
// -------------------------------------------------------------------------------------------------

const usesBfclTypes = (s: unknown, depth = 0): boolean => {
  if (depth > 64 || typeof s !== 'object' || s === null) return false;
  if (Array.isArray(s)) return s.some((x) => usesBfclTypes(x, depth + 1));
  const t = (s as Record<string, unknown>)['type'];
  if (typeof t === 'string' && Object.prototype.hasOwnProperty.call(BFCL_TYPES, t)) return true;
  return Object.values(s).some((x) => usesBfclTypes(x, depth + 1));
};

/** The format of a definition, from its shape. */
export const detectFormat = (d: JsonObject): ImportFormat => {
  if (d['type'] === 'function' && isJsonObject(d['function'])) return 'openai';
  if (d['inputSchema'] !== undefined) return 'mcp';
  if (d['input_schema'] !== undefined) return 'anthropic';
  if (typeof d['name'] === 'string' && (d['parameters'] !== undefined || d['type'] === 'function')) return usesBfclTypes(d['parameters']) ? 'bfcl' : 'openai';
  return 'jsonschema';
};

interface Extracted {
  readonly name?: string;
  readonly description?: string;
  readonly input: unknown;
  readonly output?: unknown;
  readonly inputAt: string;
  readonly outputAt: string;
  readonly metadata: JsonObject;
  readonly dialect: SchemaDialect;
}

const rest = (o: JsonObject, used: ReadonlyArray<string>): JsonObject => {
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(o)) if (!used.includes(k)) setOwn(out, k, v);
  return out;
};

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

const extract = (d: JsonObject, format: ImportFormat, fallbackName: string | undefined): Extracted | string => {
  switch (format) {
    case 'openai': {
      const f = d['type'] === 'function' && isJsonObject(d['function']) ? d['function'] : d;
      const outer = f === d ? {} : rest(d, ['type', 'function']);
      const name = str(f['name']);
      return {
        ...(name !== undefined ? { name } : {}),
        ...(str(f['description']) !== undefined ? { description: str(f['description']) as string } : {}),
        input: f['parameters'],
        inputAt: 'parameters',
        outputAt: 'outputSchema',
        metadata: { ...outer, ...rest(f, ['name', 'description', 'parameters', ...(f === d ? ['type'] : [])]) },
        dialect: 'jsonschema',
      };
    }
    case 'bfcl':
      if (typeof d['name'] !== 'string') return 'a BFCL function needs `name` and `parameters`';
      return {
        name: d['name'],
        ...(str(d['description']) !== undefined ? { description: str(d['description']) as string } : {}),
        input: d['parameters'],
        inputAt: 'parameters',
        outputAt: 'outputSchema',
        metadata: rest(d, ['name', 'description', 'parameters']),
        dialect: 'bfcl',
      };
    case 'mcp':
      if (d['inputSchema'] === undefined) return 'an MCP tool needs `inputSchema`';
      return {
        ...(str(d['name']) !== undefined ? { name: str(d['name']) as string } : {}),
        ...(str(d['description']) !== undefined ? { description: str(d['description']) as string } : {}),
        input: d['inputSchema'],
        output: d['outputSchema'],
        inputAt: 'inputSchema',
        outputAt: 'outputSchema',
        metadata: rest(d, ['name', 'description', 'inputSchema', 'outputSchema']),
        dialect: 'jsonschema',
      };
    case 'anthropic':
      if (d['input_schema'] === undefined) return 'an Anthropic tool needs `input_schema`';
      return {
        ...(str(d['name']) !== undefined ? { name: str(d['name']) as string } : {}),
        ...(str(d['description']) !== undefined ? { description: str(d['description']) as string } : {}),
        input: d['input_schema'],
        inputAt: 'input_schema',
        outputAt: 'outputSchema',
        metadata: rest(d, ['name', 'description', 'input_schema']),
        dialect: 'jsonschema',
      };
    case 'jsonschema': {
      // a bare schema; or {name, description, schema|parameters|inputSchema, outputSchema?}
      const wrapped = ['schema', 'parameters', 'inputSchema'].find((k) => isJsonObject(d[k]) && typeof d['name'] === 'string');
      if (wrapped !== undefined) {
        return {
          name: d['name'] as string,
          ...(str(d['description']) !== undefined ? { description: str(d['description']) as string } : {}),
          input: d[wrapped],
          output: d['outputSchema'],
          inputAt: wrapped,
          outputAt: 'outputSchema',
          metadata: rest(d, ['name', 'description', wrapped, 'outputSchema']),
          dialect: 'jsonschema',
        };
      }
      const name = str(d['title']) ?? fallbackName;
      return {
        ...(name !== undefined ? { name } : {}),
        ...(str(d['description']) !== undefined ? { description: str(d['description']) as string } : {}),
        input: d,
        inputAt: '',
        outputAt: 'outputSchema',
        metadata: {},
        dialect: 'jsonschema',
      };
    }
  }
};

// -------------------------------------------------------------------------------------------------
// import
// -------------------------------------------------------------------------------------------------

const withPrefix = (d: Diagnostic, name: string): Diagnostic => ({ ...d, message: `tool "${name}": ${d.message}` });

/** Imports tool definitions (already parsed JSON). */
export const importDefinitions = (values: ReadonlyArray<{ readonly value: unknown; readonly at: string }>, options: ImportOptions = {}): ImportReport => {
  const fileOpt = options.file !== undefined ? { file: options.file } : {};
  const defs: Definition[] = [];
  const problems: Diagnostic[] = [];
  for (const v of values) definitionsOf(v.value, v.at, defs, problems, options.file);
  if (defs.length === 0 && problems.length === 0 && values.length > 0)
    problems.push(error(IMPORT_UNKNOWN_SHAPE, 'no tool definitions found in the input', fileOpt));

  // 1. each definition to a signature
  interface Pending {
    readonly name: string;
    readonly format: ImportFormat;
    readonly description?: string;
    readonly signature?: TypeSignature;
    readonly metadata: JsonObject;
    readonly diagnostics: Diagnostic[];
  }
  const pending: Pending[] = [];
  const nameless = defs.length === 1 ? options.name : undefined;
  defs.forEach((d, index) => {
    const format = options.from ?? d.format ?? detectFormat(d.value);
    const e = extract(d.value, format, nameless ?? (options.name !== undefined ? `${options.name}_${index + 1}` : undefined));
    const label = d.at === '' ? `#${index + 1}` : d.at;
    if (typeof e === 'string') {
      pending.push({ name: label, format, metadata: {}, diagnostics: [error(IMPORT_UNKNOWN_SHAPE, `${label}: ${e}`, fileOpt)] });
      return;
    }
    const name = e.name ?? label;
    const diagnostics: Diagnostic[] = [];
    if (e.name === undefined || e.name.trim() === '') {
      diagnostics.push(
        error(IMPORT_MISSING_NAME, `${label}: the definition has no name`, {
          ...fileOpt,
          hint: format === 'jsonschema' ? 'give the schema a `title`, or import it with a name' : 'add `name`',
        }),
      );
    }
    if (e.description === undefined || e.description.trim() === '') {
      diagnostics.push(
        error(IMPORT_MISSING_DESCRIPTION, 'no description: a gram tool specification needs one (it is what a model reads to choose the tool)', {
          ...fileOpt,
          hint: 'add a `description` to the definition',
        }),
      );
    }
    const r = checkSignatureFromJsonSchemas(e.input, e.output, {
      dialect: e.dialect,
      at: e.inputAt,
      outputAt: e.outputAt,
      ...fileOpt,
      ...(options.repair === true ? { repair: true } : {}),
    });
    diagnostics.push(...checkedDiagnostics(r));
    const signature = checkedValue(r);
    pending.push({
      name,
      format,
      ...(e.description !== undefined ? { description: e.description } : {}),
      ...(signature !== undefined ? { signature } : {}),
      metadata: e.metadata,
      diagnostics,
    });
  });

  // 2. print, read back, and build specifications: parameter names are scoped to their tool, so each
  // is written as an identifier (`paramName` only for a name that is not a gram identifier)
  const tools: ImportedTool[] = [];
  const byName = new Map<string, ToolSpecification>();
  for (const p of pending) {
    const diagnostics = p.diagnostics;
    let spec: ToolSpecification | undefined;
    if (p.signature !== undefined && !diagnostics.some((d) => d.severity === 'error') && p.description !== undefined) {
      const sig = p.signature;
      const inline = printSignature(sig);
      const text = inline.length > 100 || sig.args.fields.length > 2 ? printSignature(sig, { layout: { indent: '  ' } }) : inline;
      const back = checkedValue(checkTypeSignature(text));
      if (back === undefined || !signatureEquals(back, sig)) {
        diagnostics.push(
          error(IMPORT_ROUND_TRIP, 'internal: the printed signature does not read back to the imported one; please report this', { ...fileOpt, hint: text }),
        );
      } else {
        const candidate = makeToolSpecification(p.name, p.description, text, back, p.metadata);
        const prev = byName.get(p.name);
        if (prev === undefined) {
          byName.set(p.name, candidate);
          spec = candidate;
        } else if (
          prev.typeSignature === candidate.typeSignature &&
          prev.description === candidate.description &&
          jsonEqual(prev.metadata ?? {}, candidate.metadata ?? {})
        ) {
          diagnostics.push(info(IMPORT_DUPLICATE, 'the same definition was imported before; written once', fileOpt));
        } else {
          diagnostics.push(
            error(IMPORT_DUPLICATE, `a different tool named "${p.name}" was imported before; tool names are unique`, {
              ...fileOpt,
              hint: 'rename one of them',
            }),
          );
        }
      }
    }
    tools.push({ name: p.name, format: p.format, ...(spec !== undefined ? { spec } : {}), diagnostics: diagnostics.map((d) => withPrefix(d, p.name)) });
  }
  return { tools, diagnostics: problems, gram: printSpecifications({ tools: [...byName.values()] }) };
};

/** Imports tool definitions from text: one JSON document (a definition, an array, a list) or JSON lines. */
export const importTools = (text: string, options: ImportOptions = {}): ImportReport => {
  const input = parseImportInput(text, options.file);
  const report = importDefinitions(input.values, options);
  return { ...report, diagnostics: [...input.diagnostics, ...report.diagnostics] };
};

/** Whether a report imported everything (warnings allowed). */
export const importSucceeded = (r: ImportReport): boolean =>
  r.diagnostics.every((d) => d.severity !== 'error') && r.tools.every((t) => t.diagnostics.every((d) => d.severity !== 'error'));
