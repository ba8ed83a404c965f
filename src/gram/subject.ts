/**
 * Questions about the subject fields that nodes, arrows and subject patterns carry (`ast.ts`):
 * whether any is written, and where they are. The AST keeps no object per subject or per key, so
 * their extents are computed here, from the positions of what they contain.
 */
import type { Identifier, Property, Subject } from './ast.js';
import type { Span } from '../core/span.js';

/** Whether an identity, a label or a record is written: false for `()`, `-[]->`, `[ | a]`. */
export const hasSubject = (s: Subject): boolean => s.identifier !== undefined || s.labels.length > 0 || s.record !== undefined;

/** Whether the subject is a bare identity (`(a)`, `[a | …]`): no labels, no record. */
export const isBareIdentity = <S extends Subject>(s: S): s is S & { readonly identifier: Identifier } =>
  s.identifier !== undefined && s.labels.length === 0 && s.record === undefined;

/** From the identity (or the first label, or the record) to the record (or the last label, or the identity); undefined when none is written. */
export const subjectSpan = (s: Subject): Span | undefined => {
  const first = s.identifier ?? s.labels[0] ?? s.record;
  const last = s.record ?? s.labels[s.labels.length - 1] ?? s.identifier;
  return first === undefined || last === undefined ? undefined : { start: first.start, end: last.end };
};

/** The key of a property, quotes included: `name`, `` `a key` ``, `"a key"`. */
export const keySpan = (p: Property): Span => ({ start: p.start, end: p.keyEnd });
