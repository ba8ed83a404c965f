/**
 * One gram document → its tool and agent patterns, compiled: each tool's signature (parameter
 * names scoped to their tool; a bare `(city)` node refers to the `city` another signature of the
 * file defines), each agent's properties and elements. References between specifications are
 * resolved later, by the linker (link.ts), across every document loaded together.
 */
import { type Checked, checkedDiagnostics, checkedValue, isLeft } from '../core/either.js';
import type { NodePattern, PathPattern, Property, SubjectPattern, SubjectPatternElement, TopLevelPattern } from '../gram/ast.js';
import { isBareIdentity, keySpan, subjectSpan } from '../gram/subject.js';
import { type Diagnostic, error, warning } from '../core/diagnostic.js';
import { analyzeGram, type ParseOptions } from '../gram/parse.js';
import type { GramDocument } from '../gram/ast.js';
import type { Span } from '../core/span.js';
import { SpecCodes } from '../types/codes.js';
import { gramToJson, stringText } from '../types/gram-values.js';
import { setOwn } from '../core/json.js';
import type { JsonObject, JsonValue } from '../core/json-schema.js';
import { type CompileContext, compileDefinition, compileSignature, definesIdentifier } from '../types/compile-signature.js';
import { ioTypeHints } from './signature.js';
import { didYouMean, editDistance } from '../core/suggest.js';
import { type ToolSpecification, makeToolSpecification } from './tool-spec.js';
import { type Field, typeEquals } from '../types/types.js';
import { AGENT_LABEL, AGENT_PROPERTIES, type LoadOptions, TOOL_LABELS, TOOL_PROPERTIES } from './specifications.js';
import { spanOf } from '../core/span.js';
import { type CompileCache, type CompiledPattern, shiftDiagnostic, shiftField, shiftSpec } from './compile-cache.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface ToolEntry {
  readonly name: string;
  readonly nameSpan: Span;
  readonly file?: string;
  readonly spec?: ToolSpecification;
}

export type AgentElement = { readonly kind: 'ref'; readonly name: string; readonly span: Span } | { readonly kind: 'tool'; readonly entry: ToolEntry };

export interface PendingAgent {
  readonly name: string;
  readonly nameSpan: Span;
  readonly file?: string;
  readonly description?: string;
  readonly instruction?: string;
  readonly model?: string;
  readonly metadata: JsonObject;
  readonly elements: ReadonlyArray<AgentElement>;
  readonly valid: boolean;
}

/** What one document holds, before linking. */
export interface Collected {
  readonly tools: ToolEntry[];
  readonly agents: PendingAgent[];
  readonly diagnostics: Diagnostic[];
}

// -------------------------------------------------------------------------------------------------
// one document
// -------------------------------------------------------------------------------------------------

export const fileOpt = (file: string | undefined) => (file !== undefined ? { file } : {});

interface Definition {
  readonly field: Field | undefined;
  readonly node: NodePattern;
  readonly role: 'parameter' | 'return';
}

/** Whether two definitions of one identifier mean the same (type, and optionality for parameters). */
const sameDefinition = (a: Definition, b: Definition): boolean => {
  if (a.field === undefined || b.field === undefined) return false;
  const typed = typeEquals(a.field.type, b.field.type);
  return a.role === 'return' || b.role === 'return' ? typed : typed && a.field.optional === b.field.optional;
};

/** A property of the user's own: `x-owner`, `x-team`. */
const isExtensionKey = (k: string): boolean => k.startsWith('x-') && k.length > 2;

/** Properties gramkit does not read on a tool or agent: warnings with a suggestion (they stay as metadata). */
const unknownProperties = (
  props: Map<string, Property>,
  known: ReadonlyArray<string>,
  what: string,
  file: string | undefined,
  diagnostics: Diagnostic[],
): void => {
  for (const [k, p] of props) {
    if (known.includes(k) || isExtensionKey(k)) continue;
    const near = didYouMean(k, known);
    diagnostics.push(
      warning(SpecCodes.UNKNOWN_PROPERTY, `${what} has a property \`${k}\` that gramkit does not read (it is kept as metadata)`, {
        span: keySpan(p),
        ...fileOpt(file),
        hint: `${near !== undefined ? `${near} ` : `known properties: ${known.join(', ')}; `}metadata of your own takes an \`x-\` prefix: \`x-${k}\``,
      }),
    );
  }
};

const specLabel = (p: SubjectPattern): 'tool' | 'agent' | undefined => {
  const labels = p.labels;
  if (labels.some((l) => TOOL_LABELS.has(l.name))) return 'tool';
  if (labels.some((l) => l.name === AGENT_LABEL)) return 'agent';
  return undefined;
};

const NEAR_LABELS = ['Tool', 'ToolSpecification', 'Agent'];

/** A top-level tool pattern the cache may answer for: its key, what the last run compiled, the fields of this run. */
interface Reusable {
  readonly key: string;
  readonly hit: CompiledPattern | undefined;
  readonly fields: Array<Field | undefined>;
}

/** The options a document of `collect` is parsed with (a caller that parses it first uses the same). */
export const gramOptionsOf = (options: LoadOptions): ParseOptions => ({
  ...(options.strict !== undefined ? { strict: options.strict } : {}),
  ...fileOpt(options.filename),
});

/**
 * Collects the tools and agents of one parsed document (agents' references are resolved later).
 * With a `cache` (compile-cache.ts), the top-level tools whose text the last run compiled are not
 * compiled again. `parsed`: the text's parse by `analyzeGram` with `gramOptionsOf(options)`, when
 * the caller has it already (the document is then not parsed again).
 */
export const collect = (text: string, options: LoadOptions, cache?: CompileCache, parsed?: Checked<GramDocument>): Collected => {
  const collected = collectWith(text, options, cache, parsed);
  cache?.endRun();
  return collected;
};

const collectWith = (text: string, options: LoadOptions, cache: CompileCache | undefined, given: Checked<GramDocument> | undefined): Collected => {
  const file = options.filename;
  const diagnostics: Diagnostic[] = [];
  const parsed = given ?? analyzeGram(text, gramOptionsOf(options));
  if (isLeft(parsed)) {
    // every syntax error, and the warnings found before them
    diagnostics.push(...parsed.left, ...ioTypeHints(text, file));
    return { tools: [], agents: [], diagnostics };
  }
  const doc = parsed.right.value;
  diagnostics.push(...(doc.warnings ?? []));

  // the spec patterns, annotations unwrapped (and reported)
  const toolPatterns: SubjectPattern[] = [];
  const agentPatterns: SubjectPattern[] = [];
  const visitTop = (p: TopLevelPattern): void => {
    if (p.kind === 'Annotated') {
      if (p.target.kind === 'SubjectPattern' && specLabel(p.target) !== undefined) {
        diagnostics.push(
          warning(SpecCodes.ANNOTATION_IGNORED, 'annotations on a specification are not read', {
            span: spanOf(p),
            ...fileOpt(file),
            hint: 'put the information in the record (it becomes metadata)',
          }),
        );
      }
      visitTop(p.target);
      return;
    }
    if (p.kind !== 'SubjectPattern') return;
    const kind = specLabel(p);
    if (kind === 'tool') toolPatterns.push(p);
    else if (kind === 'agent') agentPatterns.push(p);
    else {
      for (const l of p.labels) {
        const near = NEAR_LABELS.find((n) => n !== l.name && editDistance(l.name, n, 2) <= 2 && l.name.length >= 4);
        if (near !== undefined) {
          diagnostics.push(
            warning(SpecCodes.UNKNOWN_LABEL, `\`${l.name}\` is not a specification label, so this pattern is not read as a specification`, {
              span: spanOf(l),
              ...fileOpt(file),
              hint: `did you mean \`${near}\`?`,
            }),
          );
        }
      }
    }
  };
  for (const p of doc.patterns) visitTop(p);
  // inline tools inside agents take part in the file's identifiers too
  const inlineTools = new Map<SubjectPattern, SubjectPattern[]>();
  for (const a of agentPatterns) {
    const inl = a.elements.filter((e): e is SubjectPattern => e.kind === 'SubjectPattern' && specLabel(e) === 'tool');
    inlineTools.set(a, inl);
  }
  const allToolPatterns = [...toolPatterns, ...[...inlineTools.values()].flat()];

  // pass 1: the definitions of identifiers across every signature of the file. A parameter's name
  // is scoped to its tool (two tools may each have a `query`, declared differently); a bare
  // `(city)` node refers to the `city` of another signature, which must then mean one thing.
  const ctxBase = { source: text, ...fileOpt(file) };
  const definitions = new Map<string, Array<Definition>>();
  const pathOf = (p: SubjectPattern): PathPattern | undefined => {
    const only = p.elements.length === 1 ? p.elements[0] : undefined;
    return only !== undefined && (only.kind === 'Node' || only.kind === 'Path') ? only : undefined;
  };
  const referenceNodes: NodePattern[] = [];
  // a top-level tool that refers to no other signature compiles the same wherever it is: the cache may answer
  const topLevel = new Set(toolPatterns);
  const reusable = new Map<SubjectPattern, Reusable>();
  for (const tp of allToolPatterns) {
    const path = pathOf(tp);
    if (path === undefined) continue;
    const nodes = path.kind === 'Node' ? [path] : path.nodes;
    const standsAlone = cache !== undefined && topLevel.has(tp) && !nodes.some((n) => !definesIdentifier(n) && isBareIdentity(n));
    const key = standsAlone ? `${file ?? ''}\u0000${text.slice(tp.start, tp.end)}` : undefined;
    const hit = key !== undefined ? cache?.get(key) : undefined;
    const delta = hit !== undefined ? tp.start - hit.start : 0;
    const fields: Array<Field | undefined> = [];
    nodes.forEach((n, i) => {
      if (!definesIdentifier(n)) {
        if (isBareIdentity(n)) referenceNodes.push(n); // a bare `(name)`: a reference to a definition elsewhere in the file
        return;
      }
      const role = i === nodes.length - 1 ? 'return' : 'parameter';
      const name = n.identifier?.value as string;
      const list = definitions.get(name) ?? [];
      const known = hit?.definitions[fields.length];
      const field = hit !== undefined ? (known !== undefined ? shiftField(known, delta) : undefined) : compileDefinition(n, role, ctxBase);
      fields.push(field);
      list.push({ field, node: n, role });
      definitions.set(name, list);
    });
    if (key !== undefined) reusable.set(tp, { key, hit, fields });
  }
  const defs = new Map<string, Definition>();
  const ambiguous = new Map<string, ReadonlyArray<Definition>>();
  for (const [name, list] of definitions) {
    const first = list[0] as Definition;
    if (list.some((d) => d.field === undefined)) continue; // reported by its own signature
    if (list.every((d) => sameDefinition(first, d))) defs.set(name, first);
    else ambiguous.set(name, list);
  }
  for (const n of referenceNodes) {
    const name = n.identifier?.value as string;
    const list = ambiguous.get(name);
    if (list === undefined) continue;
    diagnostics.push(
      error(
        SpecCodes.CONFLICTING_PARAM,
        `\`(${name})\` refers to the \`${name}\` of another signature, but the signatures of this file define \`${name}\` differently`,
        {
          span: spanOf(n),
          ...fileOpt(file),
          hint: `write its type here, e.g. \`(${name}::String)\`: a parameter's name belongs to its tool`,
          related: list.map((d) => ({ message: `\`${name}\` defined here`, span: spanOf(d.node), ...fileOpt(file) })),
        },
      ),
    );
  }
  const ctx: CompileContext = { ...ctxBase, resolve: (name) => defs.get(name)?.field, isDefined: (name) => definitions.has(name) };

  const tools: ToolEntry[] = [];
  const toolOf = (p: SubjectPattern): ToolEntry | undefined => {
    const r = reusable.get(p);
    const e = r !== undefined && cache !== undefined ? reuseTool(p, r, text, ctx, defs, diagnostics, cache) : compileTool(p, text, ctx, defs, diagnostics);
    if (e !== undefined) tools.push(e);
    return e;
  };
  for (const tp of toolPatterns) toolOf(tp);
  const agents: PendingAgent[] = [];
  for (const ap of agentPatterns) {
    const a = collectAgent(ap, ctx, diagnostics, (p) => toolOf(p));
    if (a !== undefined) agents.push(a);
  }
  return { tools, agents, diagnostics };
};

/** A top-level tool from the cache, moved to where it is now; compiled (and kept for the next run) when the cache has it not. */
const reuseTool = (
  p: SubjectPattern,
  r: Reusable,
  text: string,
  ctx: CompileContext,
  defs: ReadonlyMap<string, { readonly node: NodePattern }>,
  diagnostics: Diagnostic[],
  cache: CompileCache,
): ToolEntry | undefined => {
  if (r.hit === undefined) {
    const from = diagnostics.length;
    const e = compileTool(p, text, ctx, defs, diagnostics);
    cache.put(r.key, {
      start: p.start,
      definitions: r.fields,
      ...(e !== undefined ? { name: e.name } : {}),
      ...(e?.spec !== undefined ? { spec: e.spec } : {}),
      diagnostics: diagnostics.slice(from),
    });
    return e;
  }
  const delta = p.start - r.hit.start;
  for (const d of r.hit.diagnostics) diagnostics.push(shiftDiagnostic(d, delta));
  if (r.hit.name === undefined || p.identifier === undefined) return undefined;
  return {
    name: r.hit.name,
    nameSpan: spanOf(p.identifier),
    ...fileOpt(ctx.file),
    ...(r.hit.spec !== undefined ? { spec: shiftSpec(r.hit.spec, delta) } : {}),
  };
};

/** The record of a pattern as a key → property map; a key given twice keeps its last value (the parser warns). */
const recordProps = (p: SubjectPattern): Map<string, Property> => {
  const m = new Map<string, Property>();
  for (const prop of p.record?.properties ?? []) m.set(prop.key, prop);
  return m;
};

const textProp = (props: Map<string, Property>, key: string, what: string, file: string | undefined, diagnostics: Diagnostic[]): string | undefined => {
  const p = props.get(key);
  if (p === undefined) return undefined;
  if (p.value.kind !== 'String') {
    diagnostics.push(error(SpecCodes.INVALID_PROPERTY, `the ${key} of ${what} must be a string`, { span: spanOf(p.value), ...fileOpt(file) }));
    return undefined;
  }
  return stringText(p.value);
};

const metadataOf = (props: Map<string, Property>, skip: ReadonlyArray<string>, file: string | undefined, diagnostics: Diagnostic[]): JsonObject => {
  const out: Record<string, JsonValue> = {};
  for (const [k, p] of props) {
    if (skip.includes(k)) continue;
    const v = gramToJson(p.value, { mode: 'lenient', what: `\`${k}\``, ...fileOpt(file) }, diagnostics);
    if (v !== undefined) setOwn(out, k, v);
  }
  return out;
};

const nameOf = (p: SubjectPattern, what: string, file: string | undefined, diagnostics: Diagnostic[]): { name: string; span: Span } | undefined => {
  const id = p.identifier;
  if (id === undefined || id.value === '') {
    diagnostics.push(
      error(SpecCodes.MISSING_NAME, `${what} has no name`, {
        span: subjectSpan(p) ?? spanOf(p),
        ...fileOpt(file),
        hint: `the name is the pattern identifier: \`[myName:${what === 'an agent' ? 'Agent' : 'Tool'} {...} | ...]\``,
      }),
    );
    return undefined;
  }
  return { name: id.value, span: spanOf(id) };
};

const extraLabels = (p: SubjectPattern, allowed: (name: string) => boolean, file: string | undefined, diagnostics: Diagnostic[]): void => {
  for (const l of p.labels) {
    if (!allowed(l.name))
      diagnostics.push(
        error(SpecCodes.INVALID_PROPERTY, `unexpected label \`${l.name}\` on a specification`, {
          span: spanOf(l),
          ...fileOpt(file),
          hint: 'a tool takes the label `Tool` (or `ToolSpecification`), an agent `Agent`; put other information in the record',
        }),
      );
  }
};

const compileTool = (
  p: SubjectPattern,
  text: string,
  ctx: CompileContext,
  defs: ReadonlyMap<string, { readonly node: NodePattern }>,
  diagnostics: Diagnostic[],
): ToolEntry | undefined => {
  const file = ctx.file;
  const n = nameOf(p, 'a tool', file, diagnostics);
  const what = n === undefined ? 'this tool' : `tool \`${n.name}\``;
  const start = diagnostics.length;
  let labelSeen = false;
  extraLabels(p, (l) => (TOOL_LABELS.has(l) && !labelSeen ? (labelSeen = true) : false), file, diagnostics);
  const props = recordProps(p);
  const description = textProp(props, 'description', what, file, diagnostics);
  if (props.get('description') === undefined || description?.trim() === '') {
    diagnostics.push(
      error(SpecCodes.MISSING_DESCRIPTION, `${what} needs a non-empty description`, {
        span: subjectSpan(p) ?? spanOf(p),
        ...fileOpt(file),
        hint: 'add `{description: "what it does and when to use it"}`: it is what a model reads',
      }),
    );
  }
  unknownProperties(props, TOOL_PROPERTIES, what, file, diagnostics);
  const metadata = metadataOf(props, ['description'], file, diagnostics);
  let path: PathPattern | undefined;
  if (p.elements.length === 0) {
    diagnostics.push(
      error(SpecCodes.MISSING_SIGNATURE, `${what} has no type signature`, {
        span: spanOf(p),
        ...fileOpt(file),
        hint: 'add it after `|`: `[name:Tool {description: ".."} | (arg::String)==>(::String)]`',
      }),
    );
  } else {
    const first = p.elements[0] as SubjectPatternElement;
    if (p.elements.length > 1) {
      const second = p.elements[1] as SubjectPatternElement;
      diagnostics.push(
        error(SpecCodes.MULTIPLE_SIGNATURES, `${what} has ${p.elements.length} elements; a tool has exactly one type signature`, {
          span: spanOf(second),
          ...fileOpt(file),
          hint: 'join the parameters into one path: `(a::String)==>(b::Integer)==>(::String)`',
        }),
      );
    }
    if (first.kind === 'Node' || first.kind === 'Path') path = first;
    else
      diagnostics.push(
        error(SpecCodes.NOT_A_PATH, `the type signature of ${what} must be a path of nodes`, {
          span: spanOf(first),
          ...fileOpt(file),
          hint: 'write `(arg::String)==>(::String)`',
        }),
      );
  }
  let spec: ToolSpecification | undefined;
  if (path !== undefined) {
    const r = compileSignature(path, ctx);
    diagnostics.push(...checkedDiagnostics(r));
    const compiled = checkedValue(r);
    if (compiled !== undefined && n !== undefined && description !== undefined && !hasError(diagnostics, start)) {
      spec = makeToolSpecification(n.name, description, signatureText(text, path, compiled.references, defs), compiled.signature, metadata);
    }
  }
  if (n === undefined) return undefined;
  return { name: n.name, nameSpan: n.span, ...fileOpt(file), ...(spec !== undefined ? { spec } : {}) };
};

const hasError = (ds: ReadonlyArray<Diagnostic>, from: number): boolean => ds.slice(from).some((d) => d.severity === 'error');

/** The source text of a signature, with reference nodes replaced by the text of their definitions. */
const signatureText = (
  text: string,
  path: PathPattern,
  references: ReadonlyArray<{ readonly name: string; readonly node: NodePattern }>,
  defs: ReadonlyMap<string, { readonly node: NodePattern }>,
): string => {
  const refs = [...references].sort((a, b) => a.node.start - b.node.start);
  let out = '';
  let from = path.start;
  for (const r of refs) {
    const d = defs.get(r.name);
    if (d === undefined) continue;
    out += text.slice(from, r.node.start) + text.slice(d.node.start, d.node.end);
    from = r.node.end;
  }
  return out + text.slice(from, path.end);
};

const collectAgent = (
  p: SubjectPattern,
  ctx: CompileContext,
  diagnostics: Diagnostic[],
  inlineTool: (p: SubjectPattern) => ToolEntry | undefined,
): PendingAgent | undefined => {
  const file = ctx.file;
  const n = nameOf(p, 'an agent', file, diagnostics);
  const what = n === undefined ? 'this agent' : `agent \`${n.name}\``;
  const start = diagnostics.length;
  let labelSeen = false;
  extraLabels(p, (l) => (l === AGENT_LABEL && !labelSeen ? (labelSeen = true) : false), file, diagnostics);
  const props = recordProps(p);
  const description = textProp(props, 'description', what, file, diagnostics);
  const instruction = textProp(props, 'instruction', what, file, diagnostics);
  const model = textProp(props, 'model', what, file, diagnostics);
  const at = subjectSpan(p) ?? spanOf(p);
  if (props.get('description') === undefined || description?.trim() === '') {
    diagnostics.push(error(SpecCodes.MISSING_DESCRIPTION, `${what} needs a non-empty description`, { span: at, ...fileOpt(file) }));
  }
  if (props.get('instruction') === undefined || instruction?.trim() === '') {
    diagnostics.push(
      error(SpecCodes.MISSING_INSTRUCTION, `${what} needs a non-empty instruction`, {
        span: at,
        ...fileOpt(file),
        hint: "the instruction is the agent's system prompt; a fenced string (```) suits long ones",
      }),
    );
  }
  if (props.get('model') !== undefined && model?.trim() === '') {
    diagnostics.push(
      error(SpecCodes.INVALID_PROPERTY, `the model of ${what} is empty`, {
        span: spanOf(props.get('model')?.value),
        ...fileOpt(file),
        hint: 'write it as "provider/model", e.g. "openai/gpt-4o-mini"',
      }),
    );
  }
  unknownProperties(props, AGENT_PROPERTIES, what, file, diagnostics);
  const metadata = metadataOf(props, ['description', 'instruction', 'model'], file, diagnostics);
  const elements: AgentElement[] = [];
  for (const e of p.elements) {
    if (e.kind === 'Reference') elements.push({ kind: 'ref', name: e.identifier.value, span: spanOf(e) });
    else if (e.kind === 'Node' && isBareIdentity(e)) {
      elements.push({ kind: 'ref', name: e.identifier.value, span: spanOf(e) });
    } else if (e.kind === 'SubjectPattern' && specLabel(e) === 'tool') {
      const entry = inlineTool(e);
      if (entry !== undefined) elements.push({ kind: 'tool', entry });
    } else {
      diagnostics.push(
        error(SpecCodes.INVALID_AGENT_ELEMENT, `the elements of ${what} must be tools: inline tool patterns or the names of tools`, {
          span: spanOf(e),
          ...fileOpt(file),
          hint: 'write `[agent:Agent {...} | toolName, [other:Tool {...} | ...]]`',
        }),
      );
    }
  }
  if (n === undefined) return undefined;
  return {
    name: n.name,
    nameSpan: n.span,
    ...fileOpt(file),
    ...(description !== undefined ? { description } : {}),
    ...(instruction !== undefined ? { instruction } : {}),
    ...(model !== undefined ? { model } : {}),
    metadata,
    elements,
    valid: !hasError(diagnostics, start),
  };
};
