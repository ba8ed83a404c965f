/**
 * The functional API over the signature compiler (compile-signature.ts): signature text (a
 * gram path) to its structured form (`parseTypeSignature`) and to the JSON Schema of its arguments
 * (`typeSignatureToJSONSchema`), and `checkTypeSignature` with the warnings too. See
 * `docs/type-signatures.md` for the whole language; every error has a code of codes.ts and a span.
 */
import { type Checked, type Either, isLeft, left, leftOne, right, unwarned } from '../core/either.js';
import type { PathPattern } from '../gram/ast.js';
import { type Diagnostic, error } from '../core/diagnostic.js';
import { parseGram } from '../gram/parse.js';
import { type Span, span as mkSpan, spanOf } from '../core/span.js';
import { SpecCodes } from '../types/codes.js';
import type { JsonObject } from '../core/json-schema.js';
import { argumentsSchema } from '../schema/to-json-schema.js';
import { IO_HINT } from '../types/type-expr.js';
import { type TypeSignature } from '../types/types.js';
import { compileSignature } from '../types/compile-signature.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface SignatureOptions {
  readonly filename?: string;
  /** Strict gram conformance (nested values inside records are reported by the parser). */
  readonly strict?: boolean;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/** Parses signature text (a gram path) and compiles it, with every diagnostic (warnings too). */
export const checkTypeSignature = (text: string, options: SignatureOptions = {}): Checked<TypeSignature> => {
  const fileOpt = options.filename !== undefined ? { file: options.filename } : {};
  if (text.trim() === '')
    return leftOne(
      error(SpecCodes.EMPTY, 'the type signature is empty', {
        span: mkSpan(0, text.length),
        ...fileOpt,
        hint: 'write a path of nodes, e.g. `(name::String)==>(::String)`',
      }),
    );
  const parsed = parseGram(text, {
    ...(options.strict !== undefined ? { strict: options.strict } : {}),
    ...(options.filename !== undefined ? { filename: options.filename } : {}),
  });
  if (isLeft(parsed)) return left([...parsed.left, ...ioTypeHints(text, options.filename)]);
  const doc = parsed.right;
  const warnings = doc.warnings ?? [];
  const patterns = doc.patterns;
  if (patterns.length !== 1 || doc.header !== undefined) {
    const sp = patterns.length > 1 ? mkSpan((patterns[1] as PathPattern).start, doc.end) : spanOf(doc);
    return left([
      ...warnings,
      error(SpecCodes.NOT_A_PATH, patterns.length === 0 ? 'the type signature has no nodes' : 'a type signature is one path of nodes', {
        span: sp,
        ...fileOpt,
        hint: 'join the nodes with arrows: `(a::String)==>(b::Integer)==>(::String)`',
      }),
    ]);
  }
  const p = patterns[0] as PathPattern | (Span & { kind: string });
  if (p.kind !== 'Node' && p.kind !== 'Path') {
    return left([
      ...warnings,
      error(SpecCodes.NOT_A_PATH, 'a type signature is a path of nodes, not a subject pattern or annotation', {
        span: spanOf(p),
        ...fileOpt,
        hint: 'write `(a::String)==>(::String)`',
      }),
    ]);
  }
  const r = compileSignature(p as PathPattern, { source: text, ...fileOpt });
  return isLeft(r) ? left([...warnings, ...r.left]) : right({ value: r.right.value.signature, warnings: [...warnings, ...r.right.warnings] });
};

/**
 * When gram rejects a signature, a Haskell effect type written as a label (`(::IO Text)`) is the
 * likely reason: say so, with the type-signature code, next to the syntax error.
 */
export const ioTypeHints = (text: string, file?: string): ReadonlyArray<Diagnostic> => {
  const out: Diagnostic[] = [];
  const re = /::?IO\s+([A-Za-z_[({][^)]*)/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const start = m.index + (m[0].startsWith('::') ? 2 : 1);
    const written = m[0].slice(m[0].startsWith('::') ? 2 : 1).trim();
    out.push(
      error(SpecCodes.IO_TYPE, `\`${written}\` is an effect type, not a JSON type`, {
        span: mkSpan(start, start + written.length),
        hint: IO_HINT,
        ...(file !== undefined ? { file } : {}),
      }),
    );
  }
  return out;
};

/** Parses a type signature (gram path notation) to its structured form. */
export const parseTypeSignature = (text: string, options: SignatureOptions = {}): Either<ReadonlyArray<Diagnostic>, TypeSignature> =>
  unwarned(checkTypeSignature(text, options));

/** The JSON Schema of a signature's arguments (`"type":"object"` at the root). */
export const typeSignatureToJSONSchema = (text: string, options: SignatureOptions = {}): Either<ReadonlyArray<Diagnostic>, JsonObject> => {
  const r = parseTypeSignature(text, options);
  return isLeft(r) ? r : right(argumentsSchema(r.right));
};
