/**
 * The gram form of specifications:
 *
 *   [sayHello:Tool {description: "Greets someone"} |
 *     (name::String)==>(::String)
 *   ]
 *
 *   [greeter:Agent {
 *     description: "A friendly agent",
 *     instruction: "Greet the user by name.",
 *     model: "openai/gpt-4o-mini"
 *   } |
 *     sayHello
 *   ]
 *
 * The signature text is written exactly as the specification holds it (it is the source of truth),
 * metadata after the description. Reading the output with `parseSpecifications` gives back equal
 * specifications, and printing those gives the same text.
 */
import { jsonEqual } from '../core/json-equal.js';
import { nameText } from '../gram/strings.js';
import type { AgentSpecification } from './agent-spec.js';
import { jsonToGram, keyText, textToGram } from '../types/gram-values.js';
import type { JsonObject } from '../core/json-schema.js';
import type { ToolSpecification } from './tool-spec.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface GramPrintOptions {
  /** The label of tool patterns: `Tool` (default) or `ToolSpecification`. */
  readonly toolLabel?: 'Tool' | 'ToolSpecification';
}

// -------------------------------------------------------------------------------------------------
// printer
// -------------------------------------------------------------------------------------------------

const metadataEntries = (m: JsonObject | undefined): string[] => Object.entries(m ?? {}).map(([k, v]) => `${keyText(k)}: ${jsonToGram(v)}`);

/** A tool pattern, indented by `indent` (its continuation lines too). */
export const printToolSpecification = (s: ToolSpecification, options: GramPrintOptions = {}, indent = ''): string => {
  const label = options.toolLabel ?? 'Tool';
  const entries = [`description: ${textToGram(s.description, `${indent}  `)}`, ...metadataEntries(s.metadata)];
  return `${indent}[${nameText(s.name)}:${label} {${entries.join(', ')}} |\n${indent}  ${s.typeSignature}\n${indent}]`;
};

/**
 * An agent pattern. Tools whose names are in `referenced` are written as references (they are
 * defined elsewhere in the document); the others inline.
 */
export const printAgentSpecification = (a: AgentSpecification, referenced: ReadonlySet<string> = new Set(), options: GramPrintOptions = {}): string => {
  const entries = [
    `description: ${textToGram(a.description, '  ')}`,
    `instruction: ${textToGram(a.instruction, '  ')}`,
    ...(a.model !== undefined ? [`model: ${jsonToGram(a.model)}`] : []),
    ...metadataEntries(a.metadata),
  ];
  const head = `[${nameText(a.name)}:Agent {\n  ${entries.join(',\n  ')}\n}`;
  if (a.tools.length === 0) return `${head}]`;
  const elements = a.tools.map((t) => (referenced.has(t.name) ? `  ${nameText(t.name)}` : printToolSpecification(t, options, '  ')));
  return `${head} |\n${elements.join(',\n')}\n]`;
};

/**
 * A whole document: the tools, then the agents. An agent's tool that is also among `tools` (equal)
 * is written as a reference; any other is written inline in the agent.
 */
export const printSpecifications = (
  specs: { readonly tools: ReadonlyArray<ToolSpecification>; readonly agents?: ReadonlyArray<AgentSpecification> },
  options: GramPrintOptions = {},
): string => {
  const byName = new Map(specs.tools.map((t) => [t.name, t]));
  const parts = specs.tools.map((t) => printToolSpecification(t, options));
  for (const a of specs.agents ?? []) {
    const referenced = new Set(
      a.tools
        .filter((t) => {
          const d = byName.get(t.name);
          return d !== undefined && d.typeSignature === t.typeSignature && d.description === t.description && jsonEqual(d.metadata ?? {}, t.metadata ?? {});
        })
        .map((t) => t.name),
    );
    parts.push(printAgentSpecification(a, referenced, options));
  }
  return parts.length === 0 ? '' : `${parts.join('\n\n')}\n`;
};
