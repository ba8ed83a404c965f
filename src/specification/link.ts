/**
 * Linking the documents loaded together: agents' references resolved to the tools of any document
 * (or to known tools such as the built-ins), every identifier defined the same way wherever it is
 * used (`SPEC_CONFLICTING_PARAM` points at both places), names unique, and the diagnostics sorted.
 */
import { type Either, left, right, isLeft } from '../core/either.js';
import { type Diagnostic, type RelatedInformation, error, sortDiagnostics } from '../core/diagnostic.js';
import type { Span } from '../core/span.js';
import { type AgentSpecification, checkAgentSpecification } from './agent-spec.js';
import { SpecCodes } from '../types/codes.js';
import { didYouMean } from '../core/suggest.js';
import { type ToolSpecification } from './tool-spec.js';
import { type KnownTools, type Specifications } from './specifications.js';
import { type Collected, fileOpt, type PendingAgent, type ToolEntry } from './collect.js';

// -------------------------------------------------------------------------------------------------
// linking (one or several documents)
// -------------------------------------------------------------------------------------------------

export const knownMap = (known: KnownTools | undefined): ReadonlyMap<string, ToolSpecification> => {
  if (known === undefined) return new Map();
  if (Array.isArray(known)) return new Map((known as ReadonlyArray<ToolSpecification>).map((t) => [t.name, t]));
  return known as ReadonlyMap<string, ToolSpecification>;
};

const related = (message: string, span: Span, file: string | undefined): RelatedInformation => ({ message, span, ...fileOpt(file) });

export const link = (
  docs: ReadonlyArray<Collected>,
  known: KnownTools | undefined,
): { tools: ToolSpecification[]; agents: AgentSpecification[]; diagnostics: Diagnostic[] } => {
  const diagnostics: Diagnostic[] = docs.flatMap((d) => d.diagnostics);
  const byName = new Map<string, ToolEntry>();
  const tools: ToolSpecification[] = [];
  for (const d of docs) {
    for (const t of d.tools) {
      const prev = byName.get(t.name);
      if (prev !== undefined) {
        diagnostics.push(
          error(SpecCodes.DUPLICATE_NAME, `a tool named \`${t.name}\` is already defined`, {
            span: t.nameSpan,
            ...fileOpt(t.file),
            hint: 'tool names are unique: they are how models call tools',
            related: [related('first defined here', prev.nameSpan, prev.file)],
          }),
        );
        continue;
      }
      byName.set(t.name, t);
      if (t.spec !== undefined) tools.push(t.spec);
    }
  }
  const knownTools = knownMap(known);
  const agentNames = new Map<string, PendingAgent>();
  const agents: AgentSpecification[] = [];
  for (const d of docs) {
    for (const a of d.agents) {
      const prevAgent = agentNames.get(a.name);
      const prevTool = byName.get(a.name);
      if (prevAgent !== undefined || prevTool !== undefined) {
        const first = prevAgent ?? (prevTool as ToolEntry);
        diagnostics.push(
          error(SpecCodes.DUPLICATE_NAME, `\`${a.name}\` is already defined (as ${prevAgent !== undefined ? 'an agent' : 'a tool'})`, {
            span: a.nameSpan,
            ...fileOpt(a.file),
            related: [related('first defined here', first.nameSpan, first.file)],
          }),
        );
        continue;
      }
      agentNames.set(a.name, a);
      const specs: ToolSpecification[] = [];
      let ok = a.valid;
      const seen = new Map<string, Span>();
      for (const e of a.elements) {
        let spec: ToolSpecification | undefined;
        let span: Span;
        if (e.kind === 'tool') {
          spec = e.entry.spec;
          span = e.entry.nameSpan;
          if (spec === undefined) ok = false;
        } else {
          span = e.span;
          const local = byName.get(e.name);
          if (local !== undefined) {
            spec = local.spec;
            if (spec === undefined) ok = false;
          } else if (knownTools.has(e.name)) {
            spec = knownTools.get(e.name);
          } else {
            ok = false;
            const candidates = [...byName.keys(), ...knownTools.keys()];
            const isAgent = docs.some((x) => x.agents.some((y) => y.name === e.name));
            diagnostics.push(
              error(
                SpecCodes.UNKNOWN_TOOL,
                isAgent ? `\`${e.name}\` is an agent, not a tool` : `agent \`${a.name}\` uses \`${e.name}\`, but no tool has that name`,
                {
                  span: e.span,
                  ...fileOpt(a.file),
                  hint:
                    didYouMean(e.name, candidates) ??
                    (candidates.length > 0
                      ? `tools defined: ${candidates.slice(0, 12).join(', ')}${candidates.length > 12 ? ', …' : ''}`
                      : 'define it with `[name:Tool {description: ".."} | <signature>]`'),
                },
              ),
            );
          }
        }
        if (spec === undefined) continue;
        const dup = seen.get(spec.name);
        if (dup !== undefined) {
          ok = false;
          diagnostics.push(
            error(SpecCodes.DUPLICATE_AGENT_TOOL, `agent \`${a.name}\` lists tool \`${spec.name}\` twice`, {
              span,
              ...fileOpt(a.file),
              related: [related('first listed here', dup, a.file)],
            }),
          );
          continue;
        }
        seen.set(spec.name, span);
        specs.push(spec);
      }
      if (!ok || a.description === undefined || a.instruction === undefined) continue;
      const r = checkAgentSpecification(a.name, a.description, a.instruction, specs, {
        ...(a.model !== undefined ? { model: a.model } : {}),
        metadata: a.metadata,
      });
      if (isLeft(r)) diagnostics.push(...r.left.map((x) => ({ ...x, span: a.nameSpan, ...fileOpt(a.file) })));
      else agents.push(r.right.value);
    }
  }
  return { tools, agents, diagnostics };
};

export const finish = (r: {
  tools: ToolSpecification[];
  agents: AgentSpecification[];
  diagnostics: Diagnostic[];
}): Either<ReadonlyArray<Diagnostic>, Specifications> => {
  const sorted = sortDiagnostics(r.diagnostics);
  if (sorted.some((d) => d.severity === 'error')) return left(sorted);
  return right({ tools: r.tools, agents: r.agents, warnings: sorted });
};
