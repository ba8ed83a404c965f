/**
 * Which implementation a specification declares in its metadata (`http: {...}` or
 * `command: {...}`: the kinds a specification implements by itself, `IMPLEMENTATION_PROPERTIES`),
 * read without loading the implementations: a command that only needs to know (`gramkit check` on
 * a file that declares none) does not pay for the HTTP and command tools.
 */
import { IMPLEMENTATION_PROPERTIES, IMPLEMENTATION_PROPERTY_NAMES, type SelfImplementationProperty } from '../specification/specifications.js';
import type { ToolSpecification } from '../specification/tool-spec.js';

/** A kind a specification implements by itself (`http`, `command`). */
export type ImplementationKind = SelfImplementationProperty;

const SELF_KINDS = IMPLEMENTATION_PROPERTY_NAMES.filter((k) => IMPLEMENTATION_PROPERTIES[k] === 'self') as ReadonlyArray<ImplementationKind>;

/** The kinds a specification declares of those it implements by itself (more than one is a conflict). */
export const declaredKinds = (spec: ToolSpecification): ReadonlyArray<ImplementationKind> => {
  const m = spec.metadata;
  return m === undefined ? [] : SELF_KINDS.filter((k) => m[k] !== undefined);
};

/** Which declarative implementation a specification declares, if any (`both` when it declares more than one). */
export const declaredKind = (spec: ToolSpecification): ImplementationKind | 'both' | undefined => {
  const kinds = declaredKinds(spec);
  return kinds.length > 1 ? 'both' : kinds[0];
};

/** Whether a specification declares its own implementation (HTTP or command). */
export const declaresImplementation = (spec: ToolSpecification): boolean => declaredKinds(spec).length > 0;
