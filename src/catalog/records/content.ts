/**
 * A tool's content (what a write defines: slug, version, specification, implementation and catalog
 * fields) from what a client sends, and its gram form.
 *
 * Two ways to give the specification and implementation:
 * - schemas and an implementation block: `argSchema` (JSON Schema, or the map form
 *   `{"url": "string"}`), `outputSchema`, `type` and `impl`; the argument schema is imported into
 *   a gram type signature with the spec layer's importer (every dropped keyword is a warning,
 *   anything that would change validation is an error);
 * - gram: `[slug:Tool {description, version, http|command|builtin|function: …} | signature]`.
 *
 * Either way the stored `signature` is the source of truth and `argSchema`/`outputSchema` are what
 * it compiles to, so a record always round-trips through gram.
 *
 * Pure: the implementations a default depends on (a built-in's schema, a function's annotations)
 * come from a `ContentEnvironment`.
 */
import { checkedDiagnostics, checkedValue, type Either, isLeft, isRight, left, right } from '../../core/either.js';
import { type Diagnostic, error, isError } from '../../core/diagnostic.js';
import type { JsonObject, JsonSchema, JsonValue } from '../../core/json-schema.js';
import { didYouMean } from '../../core/suggest.js';
import type { SafetyLevel } from '../../library/tool.js';
import { importDefinitions } from '../../specification/import.js';
import { parseSpecifications } from '../../specification/load.js';
import { printToolSpecification } from '../../specification/serialize.js';
import { checkNameAndDescription, checkToolSpecification, makeToolSpecification, type ToolSpecification } from '../../specification/tool-spec.js';
import type { TypeSignature } from '../../types/types.js';
import { isJsonValue } from '../../core/json.js';
import { jsonEqual } from '../../core/json-equal.js';
import { type ContentEnvironment, type ImplIssue, isKindName, KINDS, toolKind } from '../../tools/kinds.js';
import { CatalogCodes } from '../codes.js';
import { isMapForm, mapToSchema } from './map-schema.js';
import type { ToolContent, ToolType } from './records.js';
import { TOOL_TYPES } from './records.js';
import { parseSlug, parseVersion } from './slug.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** What defaults and checks of a write need to know about implementations (built-ins' schemas, functions' annotations). */
export type { ContentEnvironment } from '../../tools/kinds.js';

/** The parts of a write that define content, decoded but not yet checked together. */
export interface ContentInput {
  readonly slug: string;
  readonly version: string;
  readonly displayName?: string;
  readonly description?: string;
  readonly type?: string;
  readonly signature?: string;
  readonly argSchema?: unknown;
  readonly outputSchema?: unknown;
  readonly impl?: unknown;
  readonly tags?: ReadonlyArray<string>;
  readonly permissions?: ReadonlyArray<string>;
  readonly safetyLevel?: SafetyLevel;
}

/** Content, and what changed on the way (dropped keywords, inferred types). */
export interface Built {
  readonly content: ToolContent;
  readonly warnings: ReadonlyArray<Diagnostic>;
}

const SAFETY_LEVELS: ReadonlyArray<SafetyLevel> = ['low', 'medium', 'high'];

/** Metadata keys of a catalog tool's gram form, besides the implementation key. */
const GRAM_KEYS = ['version', 'displayName', 'tags', 'permissions', 'safetyLevel'] as const;
const IMPL_KEYS: ReadonlyArray<ToolType> = TOOL_TYPES;
/** How each kind is written, for hints: `http: {…}, command: {…}, builtin: "read_file" or function: "name"`. */
const EXAMPLES = Object.values(KINDS)
  .map((k) => k.example)
  .join(', ')
  .replace(/, ([^,]*)$/, ' or $1');

// -------------------------------------------------------------------------------------------------
// implementations
// -------------------------------------------------------------------------------------------------

/** A kind's issue with an implementation block, with the catalog's code (a configuration's own code stays in the message). */
const implProblem = (i: ImplIssue): Diagnostic => {
  if (i.issue === 'config')
    return isError(i.diagnostic)
      ? { ...i.diagnostic, code: CatalogCodes.INVALID_IMPL, message: `${i.diagnostic.code}: ${i.diagnostic.message}` }
      : i.diagnostic;
  return error(i.issue === 'unknown' ? CatalogCodes.UNKNOWN_BUILTIN : CatalogCodes.INVALID_IMPL, i.message, i.hint !== undefined ? { hint: i.hint } : {});
};

/** The implementation block in its stored form, checked by its kind. */
const checkImpl = (type: ToolType, impl: unknown, env: ContentEnvironment): Either<ReadonlyArray<Diagnostic>, JsonObject> => {
  const d = toolKind(type).decode(impl, env);
  return isLeft(d) ? left(d.left.map(implProblem)) : d;
};

// -------------------------------------------------------------------------------------------------
// signatures
// -------------------------------------------------------------------------------------------------

/** A schema given in the map form (`{"url": "string"}`), as JSON Schema. */
const schemaOf = (v: unknown, at: string): Either<ReadonlyArray<Diagnostic>, unknown> => (isMapForm(v) ? mapToSchema(v, at) : right(v));

interface Signed {
  readonly signature: string;
  readonly argSchema: JsonObject;
  readonly outputSchema: JsonSchema;
  readonly warnings: ReadonlyArray<Diagnostic>;
}

/** How many compiled signatures `compiledSignature` keeps (the least recently used is dropped first). */
const SIGNATURES_KEPT = 4096;
/**
 * Signatures compiled cleanly (no diagnostic), by their text: an import's tools repeat a few
 * signatures, and so do the records a server binds (`contentSpecification`).
 */
const compiledSignatures = new Map<string, { readonly signature: TypeSignature; readonly schema: JsonObject; readonly outputSchema: JsonSchema }>();

/** The compiled signature kept for this text (used again: the least recently used is dropped first). */
const keptSignature = (text: string): { readonly signature: TypeSignature; readonly schema: JsonObject; readonly outputSchema: JsonSchema } | undefined => {
  const known = compiledSignatures.get(text);
  if (known !== undefined) {
    compiledSignatures.delete(text);
    compiledSignatures.set(text, known);
  }
  return known;
};

/** Keeps a clean compilation's signature and schemas under its text. */
const keepSignature = (text: string, spec: ToolSpecification): void => {
  if (spec.signature === undefined) return;
  compiledSignatures.set(text, { signature: spec.signature, schema: spec.schema, outputSchema: spec.outputSchema });
  if (compiledSignatures.size > SIGNATURES_KEPT) compiledSignatures.delete(compiledSignatures.keys().next().value as string);
};

/**
 * A signature's schemas, compiled once per distinct text while it is kept. The schemas depend on
 * the text alone; the name and description are checked each time. Only a clean compilation is
 * kept, so a cached one has no warnings; any other is compiled again (its diagnostics name the tool).
 */
const compiledSignature = (slug: string, description: string, text: string): Either<ReadonlyArray<Diagnostic>, Signed> => {
  const known = keptSignature(text);
  if (known !== undefined && checkNameAndDescription(slug, description).length === 0) {
    return right({ signature: text, argSchema: known.schema, outputSchema: known.outputSchema, warnings: [] });
  }
  const r = checkToolSpecification(slug, description, text);
  const spec = checkedValue(r);
  if (spec === undefined)
    return left(
      checkedDiagnostics(r)
        .filter(isError)
        .map((d) => ({ ...d, code: CatalogCodes.INVALID_SCHEMA, message: `signature: ${d.message}` })),
    );
  if (checkedDiagnostics(r).length === 0) keepSignature(text, spec);
  return right({ signature: spec.typeSignature, argSchema: spec.schema, outputSchema: spec.outputSchema, warnings: checkedDiagnostics(r) });
};

/** A signature given as gram text, checked; the schemas given beside it must be what it compiles to. */
const fromSignature = (input: ContentInput, description: string): Either<ReadonlyArray<Diagnostic>, Signed> => {
  const compiled = compiledSignature(input.slug, description, input.signature as string);
  if (isLeft(compiled)) return compiled;
  const spec = { schema: compiled.right.argSchema, outputSchema: compiled.right.outputSchema };
  const problems: Diagnostic[] = [];
  if (input.argSchema !== undefined && !jsonEqual(input.argSchema, spec.schema)) {
    problems.push(
      error(CatalogCodes.INVALID_SCHEMA, 'argSchema is not the schema the signature compiles to', {
        hint: 'send the signature or the schemas, not both (or both unchanged from a GET)',
      }),
    );
  }
  if (input.outputSchema !== undefined && !jsonEqual(input.outputSchema, spec.outputSchema)) {
    problems.push(
      error(CatalogCodes.INVALID_SCHEMA, 'outputSchema is not the schema the signature compiles to', {
        hint: 'send the signature or the schemas, not both (or both unchanged from a GET)',
      }),
    );
  }
  return problems.length > 0 ? left(problems) : compiled;
};

/** Schemas imported into a signature with the spec layer's importer (warnings kept). */
const fromSchemas = (slug: string, description: string, argSchema: unknown, outputSchema: unknown): Either<ReadonlyArray<Diagnostic>, Signed> => {
  const report = importDefinitions(
    [
      {
        value: {
          name: slug,
          description,
          inputSchema: argSchema ?? { type: 'object', properties: {} },
          ...(outputSchema !== undefined ? { outputSchema } : {}),
        },
        at: '',
      },
    ],
    { from: 'mcp' },
  );
  const t = report.tools[0];
  const diagnostics = [...report.diagnostics, ...(t?.diagnostics ?? [])].map((d) => ({ ...d, message: d.message.replace(/^tool "[^"]*": /, '') }));
  if (t?.spec === undefined) {
    return left(diagnostics.filter(isError).map((d) => ({ ...d, code: CatalogCodes.INVALID_SCHEMA, message: `${d.code}: ${d.message}` })));
  }
  return right({ signature: t.spec.typeSignature, argSchema: t.spec.schema, outputSchema: t.spec.outputSchema, warnings: diagnostics });
};

/** The signatures of implementations' own schemas, imported once (by the schema objects the environment holds). */
const implementationSignatures = new WeakMap<object, { readonly output: JsonSchema | undefined; readonly signed: Signed }>();

/**
 * A write that gives no schemas takes its implementation's (a built-in's, a function's): the same
 * schema objects every time, so their import is kept (one per implementation, not one per write).
 * Only a clean import is kept: its signature and schemas name no tool.
 */
const implementationSigned = (
  slug: string,
  description: string,
  input: JsonSchema,
  output: JsonSchema | undefined,
): Either<ReadonlyArray<Diagnostic>, Signed> => {
  const key = typeof input === 'object' ? input : undefined;
  const known = key !== undefined ? implementationSignatures.get(key) : undefined;
  if (known !== undefined && known.output === output) return right(known.signed);
  const signed = fromSchemas(slug, description, input, output);
  if (key !== undefined && isRight(signed) && signed.right.warnings.length === 0) implementationSignatures.set(key, { output, signed: signed.right });
  return signed;
};

// -------------------------------------------------------------------------------------------------
// content
// -------------------------------------------------------------------------------------------------

/** The types, as a message lists them: `http, command, builtin, function`. */
const TYPE_LIST = TOOL_TYPES.join(', ');

/** Checks a write's content fields together and fills the defaults; every problem at once. */
export const buildContent = (input: ContentInput, env: ContentEnvironment): Either<ReadonlyArray<Diagnostic>, Built> => {
  const problems: Diagnostic[] = [];
  const slug = parseSlug(input.slug);
  if (isLeft(slug)) problems.push(...slug.left);
  const version = parseVersion(input.version);
  if (isLeft(version)) problems.push(...version.left);
  const description = input.description ?? '';
  if (description.trim() === '')
    problems.push(error(CatalogCodes.INVALID_RECORD, 'description: a tool needs a non-empty description (it is what a model reads to choose the tool)'));
  if (input.displayName !== undefined && input.displayName.trim() === '')
    problems.push(error(CatalogCodes.INVALID_RECORD, 'displayName: must not be empty (leave it out to use the slug)'));
  if (!isKindName(input.type)) {
    problems.push(
      error(
        CatalogCodes.INVALID_RECORD,
        input.type === undefined ? `type: missing; one of ${TYPE_LIST}` : `type: ${JSON.stringify(input.type)} is not one of ${TYPE_LIST}`,
      ),
    );
    return left(problems);
  }
  const type = input.type;
  const impl = checkImpl(type, input.impl, env);
  if (isLeft(impl)) problems.push(...impl.left);
  for (const [field, list] of [
    ['tags', input.tags],
    ['permissions', input.permissions],
  ] as const) {
    if (list?.some((s) => s.trim() === '')) problems.push(error(CatalogCodes.INVALID_RECORD, `${field}: empty strings are not allowed`));
  }
  if (problems.length > 0 || isLeft(impl)) return left(problems);

  // what the implementation brings: permissions, safety level, and the schemas when the write gives none
  const defaults = toolKind(type).defaults(impl.right, env);
  let signed: Either<ReadonlyArray<Diagnostic>, Signed>;
  if (input.signature !== undefined) signed = fromSignature(input, description);
  else {
    const arg = input.argSchema !== undefined ? schemaOf(input.argSchema, 'argSchema') : right(defaults.input);
    const out = input.outputSchema !== undefined ? schemaOf(input.outputSchema, 'outputSchema') : right(defaults.output);
    if (isLeft(arg) || isLeft(out)) return left([...(isLeft(arg) ? arg.left : []), ...(isLeft(out) ? out.left : [])]);
    const implementation = input.argSchema === undefined && input.outputSchema === undefined ? defaults.input : undefined;
    signed =
      implementation !== undefined
        ? implementationSigned(input.slug, description, implementation, defaults.output)
        : fromSchemas(input.slug, description, arg.right, out.right);
  }
  if (isLeft(signed)) return signed;
  return right({
    content: Object.freeze({
      slug: input.slug,
      version: input.version,
      displayName: input.displayName ?? input.slug,
      description,
      type,
      signature: signed.right.signature,
      argSchema: signed.right.argSchema,
      outputSchema: signed.right.outputSchema,
      impl: impl.right,
      tags: Object.freeze([...(input.tags ?? [])]),
      permissions: Object.freeze([...(input.permissions ?? defaults.permissions)]),
      safetyLevel: input.safetyLevel ?? defaults.safetyLevel,
    }),
    warnings: signed.right.warnings.filter((d) => !isError(d)),
  });
};

// -------------------------------------------------------------------------------------------------
// gram
// -------------------------------------------------------------------------------------------------

/** The specification of a tool: its slug, description and signature (the metadata holds the catalog fields). */
export const contentSpecification = (c: ToolContent): Either<ReadonlyArray<Diagnostic>, ToolSpecification> => {
  const metadata = gramMetadata(c);
  // a signature compiled cleanly before is not parsed again (a server binds every record it serves)
  const known = keptSignature(c.signature);
  if (known !== undefined && checkNameAndDescription(c.slug, c.description).length === 0 && isJsonValue(metadata))
    return right(makeToolSpecification(c.slug, c.description, c.signature, known.signature, metadata));
  const r = checkToolSpecification(c.slug, c.description, c.signature, { metadata });
  const spec = checkedValue(r);
  if (spec !== undefined && checkedDiagnostics(r).length === 0) keepSignature(c.signature, spec);
  return spec === undefined ? left(checkedDiagnostics(r).filter(isError)) : right(spec);
};

/** The gram metadata of a tool: every catalog field, then the implementation under its type. */
export const gramMetadata = (c: ToolContent): JsonObject => ({
  version: c.version,
  displayName: c.displayName,
  tags: [...c.tags],
  permissions: [...c.permissions],
  safetyLevel: c.safetyLevel,
  [c.type]: toolKind(c.type).metadataValue(c.impl),
});

/** The gram form of a tool: `[slug:Tool {description, version, …, http: {…}} | signature]`. */
export const contentToGram = (c: ToolContent): string =>
  printToolSpecification({
    name: c.slug,
    description: c.description,
    typeSignature: c.signature,
    schema: c.argSchema,
    outputSchema: c.outputSchema,
    metadata: gramMetadata(c),
  });

/** Strings from a metadata value that must be a list of strings. */
const stringList = (v: JsonValue | undefined, field: string, problems: Diagnostic[]): ReadonlyArray<string> | undefined => {
  if (v === undefined) return undefined;
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as ReadonlyArray<string>;
  problems.push(error(CatalogCodes.INVALID_GRAM, `${field} must be a list of strings`));
  return undefined;
};

/**
 * The content input of gram text holding exactly one tool. The pattern's identifier is the slug;
 * `version` defaults to `defaults.version` (a route's), then `"1"`.
 */
export const gramToInput = (text: string, defaults: { readonly version?: string } = {}): Either<ReadonlyArray<Diagnostic>, ContentInput> => {
  const parsed = parseSpecifications(text);
  if (isLeft(parsed)) return left(parsed.left.map((d) => ({ ...d, code: CatalogCodes.INVALID_GRAM, message: `${d.code}: ${d.message}` })));
  const { tools, agents } = parsed.right;
  if (tools.length !== 1 || agents.length > 0) {
    return left([
      error(
        CatalogCodes.INVALID_GRAM,
        `the gram text must hold exactly one tool (and no agent); it holds ${tools.length} tool${tools.length === 1 ? '' : 's'}${agents.length > 0 ? ` and ${agents.length} agent(s)` : ''}`,
      ),
    ]);
  }
  const spec = tools[0] as ToolSpecification;
  const meta = spec.metadata ?? {};
  const problems: Diagnostic[] = [];
  const implKeys = IMPL_KEYS.filter((k) => meta[k] !== undefined);
  for (const k of Object.keys(meta)) {
    if (!(GRAM_KEYS as ReadonlyArray<string>).includes(k) && !(IMPL_KEYS as ReadonlyArray<string>).includes(k)) {
      const hint = didYouMean(k, [...GRAM_KEYS, ...IMPL_KEYS]);
      problems.push(
        error(CatalogCodes.INVALID_GRAM, `tool "${spec.name}": unknown property "${k}"`, {
          hint: hint ?? `the properties are description, ${GRAM_KEYS.join(', ')} and one of ${IMPL_KEYS.join(', ')}`,
        }),
      );
    }
  }
  if (implKeys.length !== 1) {
    problems.push(
      error(
        CatalogCodes.INVALID_GRAM,
        `tool "${spec.name}" must declare exactly one implementation (${IMPL_KEYS.join(', ')}); it declares ${implKeys.length === 0 ? 'none' : implKeys.join(' and ')}`,
        {
          hint: `e.g. ${EXAMPLES}`,
        },
      ),
    );
  }
  const str = (k: string): string | undefined => {
    const v = meta[k];
    if (v === undefined) return undefined;
    if (typeof v === 'string') return v;
    problems.push(error(CatalogCodes.INVALID_GRAM, `${k} must be a string`));
    return undefined;
  };
  const version = str('version') ?? defaults.version ?? '1';
  const displayName = str('displayName');
  const safety = str('safetyLevel');
  if (safety !== undefined && !(SAFETY_LEVELS as ReadonlyArray<string>).includes(safety))
    problems.push(error(CatalogCodes.INVALID_GRAM, `safetyLevel must be low, medium or high, got ${JSON.stringify(safety)}`));
  const tags = stringList(meta['tags'], 'tags', problems);
  const permissions = stringList(meta['permissions'], 'permissions', problems);
  if (problems.length > 0) return left(problems);
  const type = implKeys[0] as ToolType;
  return right({
    slug: spec.name,
    version,
    ...(displayName !== undefined ? { displayName } : {}),
    description: spec.description,
    type,
    signature: spec.typeSignature,
    impl: meta[type],
    ...(tags !== undefined ? { tags } : {}),
    ...(permissions !== undefined ? { permissions } : {}),
    ...(safety !== undefined ? { safetyLevel: safety as SafetyLevel } : {}),
  });
};
