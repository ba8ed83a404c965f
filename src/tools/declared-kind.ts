/**
 * Which implementation a specification declares in its metadata (`http: {...}` or
 * `command: {...}`), read without loading the implementations: a command that only needs to know
 * (`gramkit check` on a file that declares none) does not pay for the HTTP and command tools.
 */
import type { ToolSpecification } from '../spec/tool-spec.js';

export type ImplementationKind = 'http' | 'command';

/** Which declarative implementation a specification declares, if any. */
export const declaredKind = (spec: ToolSpecification): ImplementationKind | 'both' | undefined => {
  const m = spec.metadata;
  const http = m !== undefined && m['http'] !== undefined;
  const command = m !== undefined && m['command'] !== undefined;
  return http && command ? 'both' : http ? 'http' : command ? 'command' : undefined;
};

/** Whether a specification declares its own implementation (HTTP or command). */
export const declaresImplementation = (spec: ToolSpecification): boolean => declaredKind(spec) !== undefined;
