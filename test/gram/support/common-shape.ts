/**
 * The common shape of gram documents that the parser's fast path reads (docs/gram.md, "The fast
 * path"), stated on the AST: the tests check that the fast path accepts exactly the valid
 * documents of this shape.
 */
import type { GramDocument } from '../../../src/index.js';

/** AST kinds outside the common shape. */
const OUTSIDE = new Set(['Annotated', 'Range', 'Map', 'TaggedString']);

/** Whether the document's AST has only kinds of the common shape. */
export const inCommonShape = (doc: GramDocument): boolean => {
  const ok = (x: unknown): boolean => {
    if (Array.isArray(x)) return x.every(ok);
    if (typeof x !== 'object' || x === null) return true;
    const kind = (x as { kind?: unknown }).kind;
    if (typeof kind === 'string' && OUTSIDE.has(kind)) return false;
    return Object.values(x).every(ok);
  };
  return ok(doc.patterns) && ok(doc.header);
};

/**
 * The document brought into the common shape: top-level annotated patterns dropped, ranges, maps
 * and tagged strings replaced by a symbol.
 */
export const toCommonShape = (doc: GramDocument): GramDocument => {
  const fix = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(fix);
    if (typeof x !== 'object' || x === null) return x;
    const kind = (x as { kind?: unknown }).kind;
    if (kind === 'Range' || kind === 'Map' || kind === 'TaggedString') return { kind: 'Symbol', name: 'x', span: { start: 0, end: 0 } };
    return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, fix(v)]));
  };
  return fix({ ...doc, patterns: doc.patterns.filter((p) => p.kind !== 'Annotated') }) as GramDocument;
};
