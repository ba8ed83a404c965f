/**
 * An agent bound to a tool library: every tool specification joined to its implementation
 * (`bindAll`, every failure at once), and the tool definitions the model is sent. Pure: nothing
 * runs, nothing is compiled (validators compile on the first call).
 */
import { type Either, left, right, isLeft } from '../core/either.js';
import { bindAll, type BindOptions, type BoundTools, formatBindError } from '../library/bind.js';
import { isToolLibrary, type ToolLibrary } from '../library/tool-library.js';
import type { AgentSpecification } from '../specification/agent-spec.js';
import { configurationError, type AgentError } from './agent-error.js';
import type { ToolDefinition } from './model.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface BoundAgent {
  readonly agent: AgentSpecification;
  readonly tools: BoundTools;
  /** What the model is told about the tools: name, description, argument schema (from the specifications). */
  readonly definitions: ReadonlyArray<ToolDefinition>;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

const isAgent = (v: unknown): v is AgentSpecification =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as AgentSpecification).name === 'string' &&
  typeof (v as AgentSpecification).instruction === 'string' &&
  Array.isArray((v as AgentSpecification).tools);

/**
 * Binds the agent's tools to `library`. Left: a `CONFIGURATION_ERROR` listing every tool that does
 * not bind (`details.bindErrors`, each with its code, mismatches and suggestions).
 */
export const bindAgent = (agent: AgentSpecification, library: ToolLibrary, options: BindOptions = {}): Either<AgentError, BoundAgent> => {
  if (!isAgent(agent))
    return left(
      configurationError('expected an AgentSpecification (name, instruction, tools)', {
        hint: 'load one with parseSpecifications or createAgentSpecification',
      }),
    );
  if (!isToolLibrary(library))
    return left(configurationError(`expected a ToolLibrary for agent "${agent.name}"`, { hint: 'make one with toolLibrary([...tools])' }));
  const bound = bindAll(agent.tools, library, options);
  if (isLeft(bound)) {
    const errors = bound.left;
    const n = errors.length;
    return left(
      configurationError(
        `agent "${agent.name}" cannot run: ${n} of its ${agent.tools.length} tool${agent.tools.length === 1 ? '' : 's'} ${n === 1 ? 'does' : 'do'} not bind to the library: ${errors.map((e) => e.message).join('; ')}`,
        {
          hint: 'every tool of the agent needs an implementation of the same name that matches its specification (gramkit invoke shows the differences)',
          details: { bindErrors: errors, report: errors.map(formatBindError).join('\n') },
        },
      ),
    );
  }
  const definitions = agent.tools.map((t): ToolDefinition => ({ name: t.name, description: t.description, inputSchema: t.schema }));
  return right({ agent, tools: bound.right, definitions });
};
