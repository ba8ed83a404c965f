/**
 * gramkit's one extension to standard gram: nested values inside records. Standard gram
 * (tree-sitter-gram) allows only scalars inside arrays and maps and no empty array; the default
 * mode also accepts arrays of maps (`fields: [{name: "a", type: "Text"}]`), maps in maps, arrays in
 * arrays and `[]`, which the type-signature language needs. Strict mode reports each use.
 */
import { GramCodes } from './codes.js';
import type { GramDocument, PathPattern, Property, RecordNode, SubjectPattern, TopLevelPattern, Value } from './ast.js';
import { type Diagnostic, error } from '../core/diagnostic.js';
import { spanOf } from '../core/span.js';

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const nestedValue = (v: Value, container: 'array' | 'map'): Diagnostic =>
  error(
    GramCodes.NESTED_VALUE,
    `${v.kind === 'Array' ? 'an array' : 'a map'} inside ${container === 'array' ? 'an array' : 'a map'} is a gramkit extension, not standard gram`,
    {
      span: spanOf(v),
      hint: 'standard gram allows only scalar values inside arrays and maps; drop --strict to accept nested values',
    },
  );

const emptyArray = (v: Value): Diagnostic =>
  error(GramCodes.EMPTY_ARRAY, 'an empty array `[]` is a gramkit extension, not standard gram', {
    span: spanOf(v),
    hint: 'standard gram has no empty array; drop --strict to accept it, or leave the property out',
  });

/** Reports the extension uses inside one value written in a record or annotation. */
const checkValue = (top: Value, out: Diagnostic[]): void => {
  const stack: Value[] = [top];
  while (stack.length > 0) {
    const v = stack.pop() as Value;
    if (v.kind === 'Array') {
      if (v.items.length === 0) out.push(emptyArray(v));
      for (const item of v.items) {
        if (item.kind === 'Array' || item.kind === 'Map') out.push(nestedValue(item, 'array'));
        stack.push(item);
      }
    } else if (v.kind === 'Map') {
      for (const e of v.entries) {
        if (e.value.kind === 'Array' || e.value.kind === 'Map') out.push(nestedValue(e.value, 'map'));
        stack.push(e.value);
      }
    }
  }
};

const checkRecord = (r: RecordNode | undefined, out: Diagnostic[]): void => {
  if (r === undefined) return;
  for (const p of r.properties as ReadonlyArray<Property>) checkValue(p.value, out);
};

const checkPath = (p: PathPattern, out: Diagnostic[]): void => {
  if (p.kind === 'Node') {
    checkRecord(p.record, out);
    return;
  }
  for (const n of p.nodes) checkRecord(n.record, out);
  for (const a of p.arrows) checkRecord(a.record, out);
};

// -------------------------------------------------------------------------------------------------
// checks
// -------------------------------------------------------------------------------------------------

/** Every use of the nested-values extension in a document, as strict-mode errors, in source order. */
export const extensionUses = (document: GramDocument): ReadonlyArray<Diagnostic> => {
  const out: Diagnostic[] = [];
  checkRecord(document.header, out);
  const stack: Array<TopLevelPattern | SubjectPattern> = [...document.patterns].reverse();
  while (stack.length > 0) {
    const p = stack.pop() as TopLevelPattern;
    switch (p.kind) {
      case 'Annotated':
        for (const a of p.annotations) checkValue(a.value, out);
        stack.push(p.target);
        break;
      case 'SubjectPattern':
        checkRecord(p.record, out);
        for (let i = p.elements.length - 1; i >= 0; i--) {
          const e = p.elements[i];
          if (e === undefined || e.kind === 'Reference') continue;
          if (e.kind === 'SubjectPattern') stack.push(e);
          else checkPath(e, out);
        }
        break;
      default:
        checkPath(p, out);
    }
  }
  return out.sort((a, b) => (a.span?.start ?? 0) - (b.span?.start ?? 0));
};
