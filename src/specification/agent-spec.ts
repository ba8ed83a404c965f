/**
 * AgentSpecification: an agent as data — its name, description, instruction, model and the tool
 * specifications it may call. Serializable (gram and JSON forms); bound to implementations late,
 * by tool name, so the same agent runs against alternate tool libraries.
 */
import { type Checked, type Either, left, right, unwarned } from '../core/either.js';
import { type Diagnostic, error } from '../core/diagnostic.js';
import { SpecCodes } from '../types/codes.js';
import { deepFreeze, isJsonValue } from '../core/json.js';
import type { JsonObject } from '../core/json-schema.js';
import type { ToolSpecification } from './tool-spec.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface AgentSpecification {
  /** Unique agent name (the pattern identifier in gram form). */
  readonly name: string;
  readonly description: string;
  /** What the agent is told to do (its system prompt). */
  readonly instruction: string;
  /** The model to run it with, as `provider/model` (e.g. `openai/gpt-4o-mini`), when the agent names one. */
  readonly model?: string;
  /** The tools it may call, in order; names are unique. */
  readonly tools: ReadonlyArray<ToolSpecification>;
  /** The agent pattern's record properties other than description, instruction and model, as JSON. */
  readonly metadata?: JsonObject;
}

export interface AgentSpecificationOptions {
  readonly model?: string;
  readonly metadata?: JsonObject;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/** Like `createAgentSpecification`, with every diagnostic. */
export const checkAgentSpecification = (
  name: string,
  description: string,
  instruction: string,
  tools: ReadonlyArray<ToolSpecification>,
  options: AgentSpecificationOptions = {},
): Checked<AgentSpecification> => {
  const out: Diagnostic[] = [];
  if (typeof name !== 'string' || name.trim() === '') out.push(error(SpecCodes.EMPTY_NAME, 'an agent needs a non-empty name'));
  if (typeof description !== 'string' || description.trim() === '') {
    out.push(error(SpecCodes.MISSING_DESCRIPTION, `agent ${JSON.stringify(name)} needs a non-empty description`));
  }
  if (typeof instruction !== 'string' || instruction.trim() === '') {
    out.push(
      error(SpecCodes.MISSING_INSTRUCTION, `agent ${JSON.stringify(name)} needs a non-empty instruction`, {
        hint: "the instruction is the agent's system prompt",
      }),
    );
  }
  if (options.model !== undefined && (typeof options.model !== 'string' || options.model.trim() === '')) {
    out.push(error(SpecCodes.INVALID_PROPERTY, `the model of agent ${JSON.stringify(name)} must be a non-empty string such as "openai/gpt-4o-mini"`));
  }
  const seen = new Set<string>();
  for (const t of tools) {
    if (seen.has(t.name))
      out.push(
        error(SpecCodes.DUPLICATE_AGENT_TOOL, `agent ${JSON.stringify(name)} lists tool "${t.name}" twice`, {
          hint: 'tool names must be unique within an agent',
        }),
      );
    seen.add(t.name);
  }
  if (options.metadata !== undefined && !isJsonValue(options.metadata)) {
    out.push(error(SpecCodes.INVALID_METADATA, `the metadata of agent ${JSON.stringify(name)} is not JSON`));
  }
  if (out.length > 0) return left(out);
  const agent: AgentSpecification = {
    name,
    description,
    instruction,
    ...(options.model !== undefined ? { model: options.model } : {}),
    tools: [...tools],
    ...(options.metadata !== undefined && Object.keys(options.metadata).length > 0 ? { metadata: structuredClone(options.metadata) } : {}),
  };
  return right({ value: deepFreeze(agent), warnings: [] });
};

/** Creates an agent specification (non-empty name, description and instruction; unique tool names). */
export const createAgentSpecification = (
  name: string,
  description: string,
  instruction: string,
  tools: ReadonlyArray<ToolSpecification>,
  options: AgentSpecificationOptions = {},
): Either<ReadonlyArray<Diagnostic>, AgentSpecification> => {
  return unwarned(checkAgentSpecification(name, description, instruction, tools, options));
};

// -------------------------------------------------------------------------------------------------
// accessors
// -------------------------------------------------------------------------------------------------

export const agentSpecName = (a: AgentSpecification): string => a.name;
export const agentSpecDescription = (a: AgentSpecification): string => a.description;
export const agentSpecInstruction = (a: AgentSpecification): string => a.instruction;
export const agentSpecModel = (a: AgentSpecification): string | undefined => a.model;
export const agentSpecTools = (a: AgentSpecification): ReadonlyArray<ToolSpecification> => a.tools;

/** The agent's tool with this name, if it has one. */
export const agentTool = (a: AgentSpecification, name: string): ToolSpecification | undefined => a.tools.find((t) => t.name === name);
