/**
 * A memo of compiled tool patterns, for a document compiled again at each edit (the language
 * server): a top-level tool pattern whose text is unchanged and that refers to no other signature
 * (no bare `(name)` node) compiles to the same specification and diagnostics, only moved by as far
 * as the pattern moved in the text. So an edit recompiles the tools it touched, not the 600 others.
 *
 * Each run keeps only the patterns its text still holds: the memo never grows past one document.
 */
import type { Diagnostic, RelatedInformation } from '../core/diagnostic.js';
import { deepFreeze } from '../core/json.js';
import type { Span } from '../core/span.js';
import type { ToolSpecification } from './tool-spec.js';
import type { Field, ReturnType, Type, TypeSignature } from '../types/types.js';

/** What one tool pattern compiled to, at the offset it had then. */
export interface CompiledPattern {
  readonly start: number;
  /** The fields its defining nodes compiled to, in node order (pass 1 of collect). */
  readonly definitions: ReadonlyArray<Field | undefined>;
  readonly name?: string;
  readonly spec?: ToolSpecification;
  readonly diagnostics: ReadonlyArray<Diagnostic>;
}

export class CompileCache {
  private last = new Map<string, CompiledPattern>();
  private next = new Map<string, CompiledPattern>();

  /** The pattern compiled under `key` by the last run (kept for the next one). */
  get(key: string): CompiledPattern | undefined {
    const hit = this.last.get(key) ?? this.next.get(key);
    if (hit !== undefined) this.next.set(key, hit);
    return hit;
  }

  put(key: string, compiled: CompiledPattern): void {
    this.next.set(key, compiled);
  }

  /** Ends a run: what it did not use is dropped. */
  endRun(): void {
    this.last = this.next;
    this.next = new Map();
  }
}

// -------------------------------------------------------------------------------------------------
// moving what was compiled by `delta` characters
// -------------------------------------------------------------------------------------------------

const shiftSpan = <S extends Span | undefined>(s: S, delta: number): S => (s === undefined ? s : ({ ...s, start: s.start + delta, end: s.end + delta } as S));

const shiftRelated = (r: RelatedInformation, delta: number): RelatedInformation => (r.span === undefined ? r : { ...r, span: shiftSpan(r.span, delta) });

export const shiftDiagnostic = (d: Diagnostic, delta: number): Diagnostic =>
  delta === 0
    ? d
    : {
        ...d,
        ...(d.span !== undefined ? { span: shiftSpan(d.span, delta) } : {}),
        ...(d.related !== undefined ? { related: d.related.map((r) => shiftRelated(r, delta)) } : {}),
      };

/** A type with its spans moved (its keywords are values of the user's: left as they are). */
const shiftType = (t: Type, delta: number): Type => {
  const moved: Record<string, unknown> = { ...t };
  if (t.span !== undefined) moved['span'] = shiftSpan(t.span, delta);
  if ('items' in t) moved['items'] = Array.isArray(t.items) ? t.items.map((x: Type) => shiftType(x, delta)) : shiftType(t.items as Type, delta);
  if ('fields' in t) moved['fields'] = t.fields.map((f) => shiftField(f, delta));
  if ('members' in t) moved['members'] = t.members.map((m) => shiftType(m, delta));
  if ('additional' in t && t.additional !== undefined && t.additional !== false) moved['additional'] = shiftType(t.additional, delta);
  return moved as unknown as Type;
};

export const shiftField = (f: Field, delta: number): Field => ({
  ...f,
  type: shiftType(f.type, delta),
  ...(f.span !== undefined ? { span: shiftSpan(f.span, delta) } : {}),
});

const shiftReturn = (r: ReturnType, delta: number): ReturnType => ({
  ...r,
  type: shiftType(r.type, delta),
  ...(r.span !== undefined ? { span: shiftSpan(r.span, delta) } : {}),
});

const shiftSignature = (s: TypeSignature, delta: number): TypeSignature =>
  ({
    ...s,
    args: shiftType(s.args, delta),
    returns: shiftReturn(s.returns, delta),
    ...(s.span !== undefined ? { span: shiftSpan(s.span, delta) } : {}),
  }) as TypeSignature;

/** A specification whose signature's spans are moved (the rest has no place in the text). */
export const shiftSpec = (spec: ToolSpecification, delta: number): ToolSpecification =>
  delta === 0 || spec.signature === undefined ? spec : deepFreeze({ ...spec, signature: shiftSignature(spec.signature, delta) });
