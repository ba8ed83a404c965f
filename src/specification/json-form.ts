/**
 * The JSON form of specifications: encoding, and decoding (the shape checked by the io-ts codecs of
 * `json-codecs.ts`, then the meaning checked here).
 *
 *   tool:  {name, description, typeSignature, schema, outputSchema, metadata?}
 *   agent: {name, description, instruction, model?, tools: [tool | "toolName"], metadata?}
 *   file:  {tools: [tool], agents: [agent]}   (or one tool, or an array of tools)
 *
 * `typeSignature` is the source of truth: on decode the schemas are compiled again from it, and a
 * stored `schema` or `outputSchema` that disagrees is an error (`SPEC_SCHEMA_MISMATCH`) pointing at
 * the first difference. Encoding writes keys in a fixed order, so encode ∘ decode is the identity.
 *
 * The root entry exports this module, so no exported type here names an io-ts type (io-ts is used
 * at run time only): the public declarations of the root stay free of io-ts.
 */
import { diffJson } from '../core/json-diff.js';
import { jsonEqual } from '../core/json-equal.js';
import { checkedDiagnostics, type Either, isLeft, left, right, checkedValue } from '../core/either.js';
import type * as t from 'io-ts';
import { type Diagnostic, error } from '../core/diagnostic.js';
import { type AgentSpecification, checkAgentSpecification } from './agent-spec.js';
import { SpecCodes } from '../types/codes.js';
import { isJsonObject } from '../core/json.js';
import { AgentSpecificationJson, SpecificationsJson, ToolSpecificationJson } from './json-codecs.js';
import type { JsonObject, JsonSchema, JsonValue } from '../core/json-schema.js';
import { didYouMean } from '../core/suggest.js';
import { type ToolSpecification, checkToolSpecification } from './tool-spec.js';
import { describeValue } from '../types/describe-value.js';

const TOOL_KEYS = ['name', 'description', 'typeSignature', 'schema', 'outputSchema', 'metadata'];
const AGENT_KEYS = ['name', 'description', 'instruction', 'model', 'tools', 'metadata'];
const FILE_KEYS = ['tools', 'agents'];

export interface DecodeOptions {
  /** Where the value sits in its file, prefixed to messages (e.g. `tools[2]`). */
  readonly at?: string;
  readonly file?: string;
  /** Tools an agent may name without defining (e.g. the built-in tools). */
  readonly knownTools?: ReadonlyArray<ToolSpecification> | ReadonlyMap<string, ToolSpecification>;
}

export interface DecodedSpecifications {
  readonly tools: ReadonlyArray<ToolSpecification>;
  readonly agents: ReadonlyArray<AgentSpecification>;
}

// -------------------------------------------------------------------------------------------------
// encoding
// -------------------------------------------------------------------------------------------------

/** The JSON form of a tool specification. */
export const encodeToolSpecification = (s: ToolSpecification): JsonObject => ({
  name: s.name,
  description: s.description,
  typeSignature: s.typeSignature,
  schema: s.schema,
  outputSchema: s.outputSchema as JsonValue,
  ...(s.metadata !== undefined ? { metadata: s.metadata } : {}),
});

/** The JSON form of an agent: tools whose names are in `byName` are written as names, others inline. */
export const encodeAgentSpecification = (a: AgentSpecification, byName: ReadonlySet<string> = new Set()): JsonObject => ({
  name: a.name,
  description: a.description,
  instruction: a.instruction,
  ...(a.model !== undefined ? { model: a.model } : {}),
  tools: a.tools.map((tl) => (byName.has(tl.name) ? tl.name : encodeToolSpecification(tl))),
  ...(a.metadata !== undefined ? { metadata: a.metadata } : {}),
});

/** The JSON form of a set of specifications; agents name the tools of the set rather than repeat them. */
export const encodeSpecifications = (specs: DecodedSpecifications): JsonObject => {
  const byName = new Map(specs.tools.map((tl) => [tl.name, tl]));
  const names = new Set<string>();
  for (const a of specs.agents)
    for (const tl of a.tools)
      if (byName.get(tl.name) !== undefined && jsonEqual(encodeToolSpecification(byName.get(tl.name) as ToolSpecification), encodeToolSpecification(tl)))
        names.add(tl.name);
  return {
    tools: specs.tools.map(encodeToolSpecification),
    agents: specs.agents.map((a) => encodeAgentSpecification(a, new Set(a.tools.filter((tl) => names.has(tl.name)).map((tl) => tl.name)))),
  };
};

// -------------------------------------------------------------------------------------------------
// decoding
// -------------------------------------------------------------------------------------------------

const fileOpt = (o: DecodeOptions) => (o.file !== undefined ? { file: o.file } : {});

const prefix = (at: string | undefined, rest: string): string => (at === undefined || at === '' ? rest : rest === '' ? at : `${at}.${rest}`);

const pathOf = (context: t.Context): string => {
  let out = '';
  for (let i = 1; i < context.length; i++) {
    // the kind of io-ts codec the key is inside (io-ts is a type-only import here: no instanceof)
    const { _tag: kind } = (context[i - 1] as t.ContextEntry).type as unknown as { readonly _tag?: string };
    const key = (context[i] as t.ContextEntry).key;
    if (kind === 'IntersectionType' || kind === 'UnionType') continue;
    out += kind === 'ArrayType' ? `[${key}]` : out === '' ? key : `.${key}`;
  }
  return out;
};

const ioErrors = (errors: t.Errors, options: DecodeOptions): Diagnostic[] => {
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const path = pathOf(e.context);
    const expected = e.context[e.context.length - 1]?.type.name ?? 'a value';
    const msg = `${prefix(options.at, path) || 'the value'}: expected ${expected}, got ${describeValue(e.value)}`;
    if (seen.has(msg)) continue;
    seen.add(msg);
    out.push(error(SpecCodes.INVALID_JSON, msg, fileOpt(options)));
  }
  return out;
};

const unknownKeys = (u: JsonObject, known: ReadonlyArray<string>, what: string, options: DecodeOptions): Diagnostic[] =>
  Object.keys(u)
    .filter((k) => !known.includes(k))
    .map((k) =>
      error(SpecCodes.INVALID_JSON, `${prefix(options.at, k)}: unknown key in ${what}`, {
        ...fileOpt(options),
        hint: didYouMean(k, known) ?? (what === 'a tool specification' ? 'put tool-specific data under `metadata`' : `known keys: ${known.join(', ')}`),
      }),
    );

/** The first JSON pointer at which two values differ (undefined when equal; `/` for the whole value). */
const firstDifference = (a: unknown, b: unknown): string | undefined => {
  const d = diffJson(a, b, {}, 1)[0];
  return d === undefined ? undefined : d.pointer === '' ? '/' : d.pointer;
};

const column = (d: Diagnostic): string => (d.span === undefined ? '' : `, at offset ${d.span.start + 1} of the signature`);

/** Decodes the JSON form of a tool specification; the schemas are compiled again from the signature. */
export const decodeToolSpecification = (u: unknown, options: DecodeOptions = {}): Either<ReadonlyArray<Diagnostic>, ToolSpecification> => {
  const r = ToolSpecificationJson.decode(u);
  if (isLeft(r)) return left(ioErrors(r.left, options));
  const j = r.right;
  const out: Diagnostic[] = unknownKeys(u as JsonObject, TOOL_KEYS, 'a tool specification', options);
  const spec = checkToolSpecification(j.name, j.description, j.typeSignature, j.metadata !== undefined ? { metadata: j.metadata } : {});
  for (const d of checkedDiagnostics(spec)) {
    if (d.severity !== 'error') continue;
    // spans point into the signature string, not into the file: say where in words instead
    out.push({
      code: d.code,
      severity: d.severity,
      message: `${prefix(options.at, 'typeSignature')}${column(d)}: ${d.message}`,
      ...fileOpt(options),
      ...(d.hint !== undefined ? { hint: d.hint } : {}),
    });
  }
  const value = checkedValue(spec);
  if (value !== undefined) {
    for (const key of ['schema', 'outputSchema'] as const) {
      const stored = j[key];
      if (stored === undefined) continue;
      const compiled = value[key] as JsonSchema;
      // a schema stored before arguments objects were closed by default says nothing of them
      const silent =
        key === 'schema' &&
        isJsonObject(stored) &&
        stored['additionalProperties'] === undefined &&
        isJsonObject(compiled) &&
        compiled['additionalProperties'] === false;
      const at = firstDifference(silent ? { ...stored, additionalProperties: false } : stored, compiled);
      if (at !== undefined) {
        out.push(
          error(
            SpecCodes.SCHEMA_MISMATCH,
            `${prefix(options.at, key)}: the stored ${key} is not the one \`typeSignature\` compiles to (first difference at ${at})`,
            {
              ...fileOpt(options),
              hint: `typeSignature is the source of truth: remove \`${key}\`, or write the one gramkit generates (\`gramkit schema\`)`,
            },
          ),
        );
      }
    }
  }
  if (out.length > 0 || value === undefined) return left(out);
  return right(value);
};

const lookupKnown = (known: DecodeOptions['knownTools'], name: string): ToolSpecification | undefined => {
  if (known === undefined) return undefined;
  if (Array.isArray(known)) return (known as ReadonlyArray<ToolSpecification>).find((k) => k.name === name);
  return (known as ReadonlyMap<string, ToolSpecification>).get(name);
};

const knownNames = (known: DecodeOptions['knownTools']): string[] =>
  known === undefined
    ? []
    : Array.isArray(known)
      ? (known as ReadonlyArray<ToolSpecification>).map((k) => k.name)
      : [...(known as ReadonlyMap<string, ToolSpecification>).keys()];

/** Decodes the JSON form of an agent; tools given by name are looked up in `knownTools`. */
export const decodeAgentSpecification = (u: unknown, options: DecodeOptions = {}): Either<ReadonlyArray<Diagnostic>, AgentSpecification> => {
  const r = AgentSpecificationJson.decode(u);
  if (isLeft(r)) return left(ioErrors(r.left, options));
  const j = r.right;
  const out: Diagnostic[] = unknownKeys(u as JsonObject, AGENT_KEYS, 'an agent specification', options);
  const tools: ToolSpecification[] = [];
  j.tools.forEach((entry, i) => {
    const at = prefix(options.at, `tools[${i}]`);
    if (typeof entry === 'string') {
      const known = lookupKnown(options.knownTools, entry);
      if (known === undefined) {
        out.push(
          error(SpecCodes.UNKNOWN_TOOL, `${at}: no tool named "${entry}"`, {
            ...fileOpt(options),
            hint: didYouMean(entry, knownNames(options.knownTools)) ?? 'define it in `tools` or inline it here',
          }),
        );
      } else tools.push(known);
      return;
    }
    const d = decodeToolSpecification(entry, { ...options, at });
    if (isLeft(d)) out.push(...d.left);
    else tools.push(d.right);
  });
  if (out.length > 0) return left(out);
  const a = checkAgentSpecification(j.name, j.description, j.instruction, tools, {
    ...(j.model !== undefined ? { model: j.model } : {}),
    ...(j.metadata !== undefined ? { metadata: j.metadata } : {}),
  });
  if (isLeft(a)) return left(a.left.map((d) => ({ ...d, message: `${prefix(options.at, '') || 'agent'}: ${d.message}`, ...fileOpt(options) })));
  return right(a.right.value);
};

/**
 * Decodes a JSON specification file: `{tools, agents}`, an array of tools, or one tool. Agents may
 * name tools of the same file or of `knownTools`. Every error is reported, not the first only.
 */
export const decodeSpecifications = (u: unknown, options: DecodeOptions = {}): Either<ReadonlyArray<Diagnostic>, DecodedSpecifications> => {
  if (Array.isArray(u)) return decodeSpecifications({ tools: u }, options);
  if (isJsonObject(u) && typeof u['typeSignature'] === 'string') {
    const d = decodeToolSpecification(u, options);
    return isLeft(d) ? d : right({ tools: [d.right], agents: [] });
  }
  const r = SpecificationsJson.decode(u);
  if (isLeft(r)) return left(ioErrors(r.left, options));
  const out: Diagnostic[] = isJsonObject(u) ? unknownKeys(u, FILE_KEYS, 'a specification file', options) : [];
  const tools: ToolSpecification[] = [];
  const rawTools = (u as { tools?: unknown[] }).tools ?? [];
  rawTools.forEach((tl, i) => {
    const d = decodeToolSpecification(tl, { ...options, at: prefix(options.at, `tools[${i}]`) });
    if (isLeft(d)) out.push(...d.left);
    else if (tools.some((x) => x.name === d.right.name))
      out.push(error(SpecCodes.DUPLICATE_NAME, `${prefix(options.at, `tools[${i}]`)}: a tool named "${d.right.name}" is already defined`, fileOpt(options)));
    else tools.push(d.right);
  });
  const known = new Map<string, ToolSpecification>();
  for (const n of knownNames(options.knownTools)) known.set(n, lookupKnown(options.knownTools, n) as ToolSpecification);
  for (const tl of tools) known.set(tl.name, tl);
  const agents: AgentSpecification[] = [];
  const rawAgents = (u as { agents?: unknown[] }).agents ?? [];
  rawAgents.forEach((a, i) => {
    const d = decodeAgentSpecification(a, { ...options, at: prefix(options.at, `agents[${i}]`), knownTools: known });
    if (isLeft(d)) out.push(...d.left);
    else if (agents.some((x) => x.name === d.right.name))
      out.push(error(SpecCodes.DUPLICATE_NAME, `${prefix(options.at, `agents[${i}]`)}: an agent named "${d.right.name}" is already defined`, fileOpt(options)));
    else agents.push(d.right);
  });
  if (out.length > 0) return left(out);
  return right({ tools, agents });
};
