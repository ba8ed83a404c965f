/**
 * The agent a command runs from a loaded file (`gramkit run`, `gramkit ab`, a worker): the file's
 * only agent, or the one `--agent` names.
 */
import { type CodedError, failWith, ok, type Result } from '../core/result.js';
import { didYouMean } from '../core/suggest.js';
import type { AgentSpecification } from '../specification/agent-spec.js';
import { type ProjectCode, ProjectCodes } from './codes.js';
import type { ProjectFile } from './project-file.js';

/** The agent of `file` named `name`, or its only agent when no name is given. */
export const chooseAgent = ({ source, specs }: ProjectFile, name: string | undefined): Result<AgentSpecification, CodedError<ProjectCode>> => {
  const agents = specs.agents;
  const names = agents.map((a) => a.name);
  if (name !== undefined) {
    const agent = agents.find((a) => a.name === name);
    if (agent !== undefined) return ok(agent);
    const hint = didYouMean(name, names);
    return failWith(
      ProjectCodes.UNKNOWN_AGENT,
      `${source.name} has no agent named "${name}"${hint !== undefined ? ` (${hint})` : names.length > 0 ? ` (agents: ${names.join(', ')})` : ''}`,
    );
  }
  const [only] = agents;
  if (only !== undefined && agents.length === 1) return ok(only);
  if (agents.length === 0) {
    const tools = specs.tools.length > 0 ? ` (it defines the tools ${specs.tools.map((t) => t.name).join(', ')})` : '';
    return failWith(ProjectCodes.NO_AGENT, `${source.name} defines no agent${tools}`);
  }
  return failWith(ProjectCodes.AMBIGUOUS_AGENT, `${source.name} defines ${agents.length} agents; choose one with --agent (${names.join(', ')})`);
};
