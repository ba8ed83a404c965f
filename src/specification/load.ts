/**
 * Specifications from gram text and files: every tool and agent of a document, with every
 * diagnostic at once (not the first only).
 *
 * - A tool is `[name:Tool {description: "..", ...metadata} | <signature>]` (`ToolSpecification` is
 *   the same label); an agent is `[name:Agent {description, instruction, model?} | tool, ...]`,
 *   its tools inline or references to tools of the file, of other files loaded with it, or of
 *   `knownTools` (the built-in tools).
 * - A parameter's name is scoped to its tool: two tools may declare `query` differently. A bare
 *   `(city)` refers to the `city` another signature of the file defines, which must then have one
 *   meaning (`SPEC_CONFLICTING_PARAM`, pointing at every definition). A specification's
 *   `typeSignature` text has such references replaced by their definitions, so it stands alone.
 * - Other patterns are not specifications and are left alone (a near-miss label such as `Tools` is
 *   reported as a warning).
 */
import { extname } from 'node:path';
import { type Either, isLeft } from '../core/either.js';
import { type Diagnostic, error } from '../core/diagnostic.js';
import { type Collected, collect, fileOpt, type ToolEntry } from './collect.js';
import type { Checked } from '../core/either.js';
import type { GramDocument } from '../gram/ast.js';
import { finish, knownMap, link } from './link.js';
import type { KnownTools, LoadOptions, Specifications } from './specifications.js';
import { type AgentSpecification } from './agent-spec.js';
import { SpecCodes } from '../types/codes.js';
import { decodeSpecifications } from './json-form.js';
import type { CompileCache } from './compile-cache.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export type { KnownTools, LoadOptions, Specifications } from './specifications.js';
export { AGENT_LABEL, TOOL_LABELS } from './specifications.js';

// -------------------------------------------------------------------------------------------------
// entry points
// -------------------------------------------------------------------------------------------------

/**
 * Every tool and agent specification of a gram document. Left: every diagnostic (errors and
 * warnings, in source order) when there is at least one error.
 */
export const parseSpecifications = (text: string, options: LoadOptions = {}): Either<ReadonlyArray<Diagnostic>, Specifications> =>
  finish(link([collect(text, options)], options.knownTools));

/** One source for `loadSpecifications`: gram text, or the JSON form (`.json` files). */
export interface SpecificationSource {
  readonly text: string;
  readonly filename?: string;
  readonly format?: 'gram' | 'json';
}

/** Specifications from several sources at once; agents may use the tools of any of them. */
export const loadSpecifications = (
  sources: ReadonlyArray<SpecificationSource>,
  options: { readonly strict?: boolean; readonly knownTools?: KnownTools } = {},
): Either<ReadonlyArray<Diagnostic>, Specifications> => loadSpecificationsWith(sources, options);

/**
 * `loadSpecifications`, with a memo of the compiled tools of one gram source loaded again and
 * again as it is edited (the language server; compile-cache.ts): the same result, sooner.
 */
export const loadSpecificationsWith = (
  sources: ReadonlyArray<SpecificationSource>,
  options: { readonly strict?: boolean; readonly knownTools?: KnownTools },
  cache?: CompileCache,
): Either<ReadonlyArray<Diagnostic>, Specifications> => {
  const docs: Collected[] = [];
  const jsonSources: SpecificationSource[] = [];
  for (const s of sources) {
    const format = s.format ?? (s.filename !== undefined && extname(s.filename).toLowerCase() === '.json' ? 'json' : 'gram');
    if (format === 'json') jsonSources.push(s);
    else
      docs.push(
        collect(
          s.text,
          { ...(s.filename !== undefined ? { filename: s.filename } : {}), ...(options.strict !== undefined ? { strict: options.strict } : {}) },
          cache,
        ),
      );
  }
  // JSON documents: their tools join the others; their agents may name any tool loaded
  const extraTools: ToolEntry[] = [];
  const extraAgents: AgentSpecification[] = [];
  const jsonDiagnostics: Diagnostic[] = [];
  const known = new Map(knownMap(options.knownTools));
  for (const d of docs) for (const t of d.tools) if (t.spec !== undefined && !known.has(t.name)) known.set(t.name, t.spec);
  for (const s of jsonSources) {
    let value: unknown;
    try {
      value = JSON.parse(s.text);
    } catch (e) {
      jsonDiagnostics.push(error(SpecCodes.INVALID_JSON, `not valid JSON: ${(e as Error).message}`, fileOpt(s.filename)));
      continue;
    }
    const r = decodeSpecifications(value, { ...fileOpt(s.filename), knownTools: known });
    if (isLeft(r)) {
      jsonDiagnostics.push(...r.left);
      continue;
    }
    for (const t of r.right.tools) {
      extraTools.push({ name: t.name, nameSpan: { start: 0, end: 0 }, ...fileOpt(s.filename), spec: t });
      if (!known.has(t.name)) known.set(t.name, t);
    }
    extraAgents.push(...r.right.agents);
  }
  const all: Collected[] = [...docs, { tools: extraTools, agents: [], diagnostics: jsonDiagnostics }];
  const linked = link(all, known);
  return finish({ ...linked, agents: [...linked.agents, ...extraAgents] });
};

/**
 * The specifications of one gram document its caller parsed already (`parsed`: `analyzeGram` of
 * `text` with the options `gramOptionsOf` gives, collect.ts), compiled once. The function returned
 * links them against `knownTools` as `loadSpecifications` does, and may be called again with more
 * known tools (the built-in ones): the document is neither parsed nor compiled again.
 */
export const compileParsed = (
  text: string,
  parsed: Checked<GramDocument>,
  options: { readonly filename?: string; readonly strict?: boolean },
  cache?: CompileCache,
): ((knownTools?: KnownTools) => Either<ReadonlyArray<Diagnostic>, Specifications>) => {
  const collected = collect(text, options, cache, parsed);
  return (knownTools) => {
    const known = new Map(knownMap(knownTools));
    for (const t of collected.tools) if (t.spec !== undefined && !known.has(t.name)) known.set(t.name, t.spec);
    return finish(link([collected, { tools: [], agents: [], diagnostics: [] }], known));
  };
};
