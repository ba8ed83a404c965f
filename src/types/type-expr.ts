/**
 * Type expressions: the small Haskell-like language of `elementType`, a field's `type`, a node's
 * `type` property and type labels.
 *
 *   type   := app ('|' app)*                     union (anyOf)
 *   app    := 'Maybe' atom | 'Map' atom | atom   Maybe: the field or parameter may be absent
 *   atom   := Name | '[' type ']' | '{' [field (',' field)* [',']] '}' | '(' type (',' type)* ')'
 *   field  := key ':' type                       key: a name or a "double-quoted" string
 *
 * `(T)` is grouping, `(T1, T2)` a tuple, `{a: T}` a record (open, as JSON Schema objects are),
 * `Map T` an object whose values are all `T`. `Maybe` is allowed only where absence means
 * something: at the top of a parameter's or field's type (`{age: Maybe Int}`).
 */
import { SpecCodes } from './codes.js';
import { type Checked, checked, type Either, isRight, left, right } from '../core/either.js';
import { type Diagnostic, error } from '../core/diagnostic.js';
import { type Span, span } from '../core/span.js';
import { type Field, type PrimitiveKind, type Type, anyType, arrayType, field, hasAnyMeta, objectType, primitiveType, tupleType, unionType } from './types.js';
import { didYouMean } from '../core/suggest.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** A parsed type expression: the type, and whether it was `Maybe T` (absence allowed). */
export interface TypeExpression {
  readonly type: Type;
  readonly optional: boolean;
}

export interface TypeExpressionOptions {
  /** Maps an offset in the expression text to an offset in the enclosing source (default: identity). */
  readonly offset?: (index: number) => number;
  readonly file?: string;
  /** Whether `Maybe T` is allowed at the top (true for parameters and fields). */
  readonly allowMaybe?: boolean;
}

/** Every type name gramkit knows, with the kind it denotes. */
export const TYPE_NAMES: Readonly<Record<string, PrimitiveKind | 'Object' | 'Array'>> = {
  Text: 'String',
  String: 'String',
  Int: 'Integer',
  Integer: 'Integer',
  Double: 'Number',
  Number: 'Number',
  Float: 'Number',
  Bool: 'Boolean',
  Boolean: 'Boolean',
  Null: 'Null',
  Any: 'Any',
  Object: 'Object',
  Array: 'Array',
};

/** Names people coming from other languages write, with what to write instead. */
const NAME_HINTS: Readonly<Record<string, string>> = {
  Char: 'String',
  Str: 'String',
  str: 'String',
  string: 'String',
  int: 'Integer',
  integer: 'Integer',
  Long: 'Integer',
  Word: 'Integer',
  float: 'Number',
  double: 'Number',
  number: 'Number',
  Decimal: 'Number',
  bool: 'Boolean',
  boolean: 'Boolean',
  List: '[T]',
  list: '[T]',
  array: '[T]',
  Dict: 'Map T (or {key: T, ...})',
  dict: 'Map T (or {key: T, ...})',
  object: 'Object',
  Json: 'Any',
  JSON: 'Any',
  Value: 'Any',
  any: 'Any',
  null: 'Null',
  Unit: 'Null',
  Void: 'Null',
  Either: 'A | B',
  Tuple: '(A, B)',
};

export const IO_HINT = 'tools exchange JSON values: write the type of the value itself (for `IO Text`, write `String`)';

// -------------------------------------------------------------------------------------------------
// lexer
// -------------------------------------------------------------------------------------------------

type TokenKind = 'name' | 'string' | '[' | ']' | '{' | '}' | '(' | ')' | ',' | ':' | '|' | 'eof';

interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '"': '"', '\\': '\\', '/': '/' };

const NAME_START = /[A-Za-z_]/;
const NAME_PART = /[0-9A-Za-z_.\-@]/;

const lex = (text: string, st: State): Token[] => {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
    } else if ('[]{}(),:|'.includes(c)) {
      out.push({ kind: c as TokenKind, text: c, start: i, end: i + 1 });
      i++;
    } else if (NAME_START.test(c)) {
      const s = i;
      while (i < text.length && NAME_PART.test(text[i] as string)) i++;
      out.push({ kind: 'name', text: text.slice(s, i), start: s, end: i });
    } else if (c === '"') {
      const s = i;
      i++;
      let value = '';
      let closed = false;
      while (i < text.length) {
        const d = text[i] as string;
        if (d === '"') {
          closed = true;
          i++;
          break;
        }
        if (d === '\\' && i + 1 < text.length) {
          const e = text[i + 1] as string;
          const hex = e === 'u' ? /^[0-9a-fA-F]{4}$/.exec(text.slice(i + 2, i + 6)) : null;
          if (hex !== null) {
            value += String.fromCharCode(Number.parseInt(hex[0], 16));
            i += 6;
            continue;
          }
          value += ESCAPES[e] ?? e;
          i += 2;
          continue;
        }
        value += d;
        i++;
      }
      if (!closed) report(st, SpecCodes.TYPE_EXPR, 'unclosed string in type expression', s, i);
      out.push({ kind: 'string', text: value, start: s, end: i });
    } else {
      report(st, SpecCodes.TYPE_EXPR, `unexpected character ${JSON.stringify(c)} in type expression`, i, i + 1);
      i++;
    }
  }
  out.push({ kind: 'eof', text: '', start: text.length, end: text.length });
  return out;
};

// -------------------------------------------------------------------------------------------------
// parser
// -------------------------------------------------------------------------------------------------

/** Parses a type expression; diagnostics point into the enclosing source through `options.offset`. */
export const parseTypeExpression = (text: string, options: TypeExpressionOptions = {}): Either<ReadonlyArray<Diagnostic>, TypeExpression> => {
  const r = checkTypeExpression(text, options);
  if (isRight(r)) return right(r.right.value);
  return left(r.left.length > 0 ? r.left : [error(SpecCodes.TYPE_EXPR, 'empty type expression')]);
};

/** The state of one parse (module-level functions take it, so a parse allocates no closures). */
interface State {
  readonly text: string;
  readonly tokens: ReadonlyArray<Token>;
  pos: number;
  readonly at: (index: number) => number;
  readonly file: string | undefined;
  readonly diagnostics: Diagnostic[];
}

/** A parsed sub-expression; `maybe` says whether `Maybe` was used at its top. */
interface Parsed {
  readonly type: Type;
  readonly maybe: boolean;
  readonly start: number;
  readonly end: number;
}

const IDENTITY = (i: number): number => i;

const spanOf = (st: State, s: number, e: number): Span => span(st.at(s), st.at(Math.max(s, e)));

const report = (st: State, code: string, message: string, s: number, e: number, hint?: string): void => {
  st.diagnostics.push(
    error(code, message, { span: spanOf(st, s, e), ...(st.file !== undefined ? { file: st.file } : {}), ...(hint !== undefined ? { hint } : {}) }),
  );
};

const peek = (st: State): Token => st.tokens[st.pos] as Token;

const next = (st: State): Token => st.tokens[st.pos++] as Token;

const expect = (st: State, kind: TokenKind, what: string): Token | undefined => {
  const t = peek(st);
  if (t.kind === kind) return next(st);
  report(
    st,
    SpecCodes.TYPE_EXPR,
    `expected ${what}, found ${t.kind === 'eof' ? 'the end of the expression' : JSON.stringify(t.text)}`,
    t.start,
    Math.max(t.end, t.start + 1),
  );
  return undefined;
};

const parseUnion = (st: State): Parsed | undefined => {
  const first = parseApp(st);
  if (first === undefined) return undefined;
  if (peek(st).kind !== '|') return first;
  const members: Parsed[] = [first];
  while (peek(st).kind === '|') {
    next(st);
    const m = parseApp(st);
    if (m === undefined) return undefined;
    members.push(m);
  }
  for (const m of members) {
    if (m.maybe)
      report(
        st,
        SpecCodes.MAYBE_POSITION,
        '`Maybe` cannot be a member of a union',
        m.start,
        m.end,
        'write `Maybe (A | B)` for a field that may be absent, or `A | Null` for a value that may be null',
      );
  }
  const end = (members[members.length - 1] as Parsed).end;
  return {
    type: unionType(
      members.map((m) => m.type),
      undefined,
      spanOf(st, first.start, end),
    ),
    maybe: false,
    start: first.start,
    end,
  };
};

const parseApp = (st: State): Parsed | undefined => {
  const t = peek(st);
  if (t.kind === 'name' && (t.text === 'Maybe' || t.text === 'Map' || t.text === 'IO')) {
    next(st);
    const arg = parseAtom(st);
    if (arg === undefined) return undefined;
    if (t.text === 'IO') {
      report(st, SpecCodes.IO_TYPE, `\`IO ${st.text.slice(arg.start, arg.end)}\` is an effect type, not a JSON type`, t.start, arg.end, IO_HINT);
      return { ...arg, start: t.start };
    }
    if (arg.maybe) report(st, SpecCodes.MAYBE_POSITION, '`Maybe` cannot be nested', arg.start, arg.end);
    if (t.text === 'Maybe') return { type: arg.type, maybe: true, start: t.start, end: arg.end };
    return { type: objectType([], undefined, arg.type, spanOf(st, t.start, arg.end)), maybe: false, start: t.start, end: arg.end };
  }
  return parseAtom(st);
};

const noMaybe = (st: State, p: Parsed, where: string): Parsed => {
  if (p.maybe)
    report(
      st,
      SpecCodes.MAYBE_POSITION,
      `\`Maybe\` is not allowed ${where}`,
      p.start,
      p.end,
      '`Maybe T` marks a parameter or record field that may be absent; for a value that may be null write `T | Null`',
    );
  return p;
};

const unknownName = (st: State, name: string, s: number, e: number): void => {
  const hint = NAME_HINTS[name] !== undefined ? `write \`${NAME_HINTS[name]}\`` : didYouMean(name, Object.keys(TYPE_NAMES));
  report(
    st,
    SpecCodes.UNKNOWN_TYPE,
    `unknown type \`${name}\``,
    s,
    e,
    hint ?? `known types: ${Object.keys(TYPE_NAMES).join(', ')}, and the forms [T], {a: T}, (T1, T2), Maybe T, Map T, A | B`,
  );
};

const parseName = (st: State, t: Token): Parsed => {
  next(st);
  const kind = TYPE_NAMES[t.text];
  const sp = spanOf(st, t.start, t.end);
  if (kind === undefined) {
    if (t.text === 'Maybe' || t.text === 'Map' || t.text === 'IO') report(st, SpecCodes.TYPE_EXPR, `\`${t.text}\` needs a type after it`, t.start, t.end);
    else unknownName(st, t.text, t.start, t.end);
    return { type: anyType(undefined, sp), maybe: false, start: t.start, end: t.end };
  }
  const type =
    kind === 'Object' ? objectType([], undefined, undefined, sp) : kind === 'Array' ? arrayType(anyType(), undefined, sp) : primitiveType(kind, undefined, sp);
  return { type, maybe: false, start: t.start, end: t.end };
};

const parseList = (st: State, t: Token): Parsed | undefined => {
  next(st);
  const inner = parseUnion(st);
  if (inner === undefined) return undefined;
  const close = expect(st, ']', '`]` to close the array type');
  if (close === undefined) return undefined;
  noMaybe(st, inner, 'inside an array type');
  return { type: arrayType(inner.type, undefined, spanOf(st, t.start, close.end)), maybe: false, start: t.start, end: close.end };
};

const parseTuple = (st: State, t: Token): Parsed | undefined => {
  next(st);
  if (peek(st).kind === ')') {
    const close = next(st);
    report(
      st,
      SpecCodes.TYPE_EXPR,
      'an empty tuple `()` has no JSON form',
      t.start,
      close.end,
      'write `[Any]` with `maxItems: 0` if you really mean an empty array',
    );
    return undefined;
  }
  const items: Parsed[] = [];
  for (;;) {
    const item = parseUnion(st);
    if (item === undefined) return undefined;
    items.push(item);
    if (peek(st).kind !== ',') break;
    next(st);
  }
  const close = expect(st, ')', '`)` or `,`');
  if (close === undefined) return undefined;
  if (items.length === 1) return { ...(items[0] as Parsed), start: t.start, end: close.end };
  for (const i of items) noMaybe(st, i, 'inside a tuple');
  return {
    type: tupleType(
      items.map((i) => i.type),
      undefined,
      spanOf(st, t.start, close.end),
    ),
    maybe: false,
    start: t.start,
    end: close.end,
  };
};

const parseRecord = (st: State, t: Token): Parsed | undefined => {
  next(st);
  const fields: Field[] = [];
  const seen = new Set<string>();
  while (peek(st).kind !== '}') {
    const k = peek(st);
    if (k.kind !== 'name' && k.kind !== 'string') {
      expect(st, 'name', 'a field name or `}`');
      return undefined;
    }
    next(st);
    if (expect(st, ':', '`:` after the field name') === undefined) return undefined;
    const ft = parseUnion(st);
    if (ft === undefined) return undefined;
    if (seen.has(k.text)) report(st, SpecCodes.DUPLICATE_FIELD, `field "${k.text}" is defined twice in this record`, k.start, k.end);
    seen.add(k.text);
    fields.push(field(k.text, ft.type, ft.maybe, spanOf(st, k.start, ft.end)));
    if (peek(st).kind === ',') {
      next(st);
      continue;
    }
    if (peek(st).kind !== '}') {
      expect(st, '}', '`,` or `}`');
      return undefined;
    }
  }
  const close = next(st);
  return { type: objectType(fields, undefined, undefined, spanOf(st, t.start, close.end)), maybe: false, start: t.start, end: close.end };
};

const parseAtom = (st: State): Parsed | undefined => {
  const t = peek(st);
  switch (t.kind) {
    case 'name':
      return parseName(st, t);
    case '[':
      return parseList(st, t);
    case '(':
      return parseTuple(st, t);
    case '{':
      return parseRecord(st, t);
    case 'eof':
      report(st, SpecCodes.TYPE_EXPR, st.text.trim() === '' ? 'empty type expression' : 'expected a type, found the end of the expression', t.start, t.start);
      return undefined;
    default:
      next(st);
      report(st, SpecCodes.TYPE_EXPR, `expected a type, found ${JSON.stringify(t.text)}`, t.start, t.end);
      return undefined;
  }
};

/** Parses a type expression, returning what it could build and every diagnostic. */
export const checkTypeExpression = (text: string, options: TypeExpressionOptions = {}): Checked<TypeExpression> => {
  const diagnostics: Diagnostic[] = [];
  const st: State = { text, tokens: [], pos: 0, at: options.offset ?? IDENTITY, file: options.file, diagnostics };
  (st as { tokens: ReadonlyArray<Token> }).tokens = lex(text, st);
  const result = parseUnion(st);
  if (result !== undefined && peek(st).kind !== 'eof') {
    const t = peek(st);
    report(st, SpecCodes.TYPE_EXPR, `unexpected ${JSON.stringify(t.text)} after the type`, t.start, t.end);
  }
  if (result !== undefined && result.maybe && options.allowMaybe === false) noMaybe(st, result, 'here');
  return checked(diagnostics.length > 0 || result === undefined ? undefined : { type: result.type, optional: result.maybe }, diagnostics);
};

// -------------------------------------------------------------------------------------------------
// printer
// -------------------------------------------------------------------------------------------------

const KEY = /^[A-Za-z_][0-9A-Za-z_]*$/;

const printKey = (k: string): string => (KEY.test(k) ? k : JSON.stringify(k));

/**
 * Whether a type can be written as a type expression. The top level's own meta is the caller's
 * business (it goes into the record around the expression); below it nothing may carry meta, and
 * objects must be open records or plain maps.
 */
export const isExpressible = (t: Type, top = true): boolean => {
  if (!top && Object.keys(t.meta).length > 0) return false;
  switch (t.kind) {
    case 'Array':
      return isExpressible(t.items, false);
    case 'Tuple':
      return t.items.every((i) => isExpressible(i, false));
    case 'Union':
      return t.members.every((m) => isExpressible(m, false));
    case 'Object':
      if (t.additional === false) return false;
      if (t.additional !== undefined) return t.fields.length === 0 && isExpressible(t.additional, false);
      return t.fields.every((f) => isExpressible(f.type, false));
    default:
      return true;
  }
};

/** Prints a type as an expression (meta is ignored; check `isExpressible` first). */
export const printTypeExpression = (t: Type, optional = false): string => {
  const body = print(t);
  return optional ? `Maybe ${needsParensAsArgument(t) ? `(${body})` : body}` : body;
};

const needsParensAsArgument = (t: Type): boolean => t.kind === 'Union' || (t.kind === 'Object' && t.additional !== undefined && t.additional !== false);

const print = (t: Type): string => {
  switch (t.kind) {
    case 'String':
    case 'Integer':
    case 'Number':
    case 'Boolean':
    case 'Null':
    case 'Any':
      return t.kind;
    case 'Array':
      return `[${print(t.items)}]`;
    case 'Tuple':
      return `(${t.items.map(print).join(', ')})`;
    case 'Union':
      return t.members.map((m) => (m.kind === 'Union' ? `(${print(m)})` : print(m))).join(' | ');
    case 'Object':
      if (t.additional !== undefined && t.additional !== false && t.fields.length === 0) {
        return `Map ${needsParensAsArgument(t.additional) ? `(${print(t.additional)})` : print(t.additional)}`;
      }
      if (t.fields.length === 0) return 'Object';
      return `{${t.fields.map((f) => `${printKey(f.name)}: ${printTypeExpression(f.type, f.optional)}`).join(', ')}}`;
  }
};

/** Whether the expression of a type is a bare name (usable as a gram label as it is). */
export const isSimpleName = (t: Type): boolean =>
  !hasAnyMeta({ ...t, meta: {} }) &&
  (t.kind === 'String' ||
    t.kind === 'Integer' ||
    t.kind === 'Number' ||
    t.kind === 'Boolean' ||
    t.kind === 'Null' ||
    t.kind === 'Any' ||
    (t.kind === 'Object' && t.fields.length === 0 && t.additional === undefined) ||
    (t.kind === 'Array' && t.items.kind === 'Any' && Object.keys(t.items.meta).length === 0));

/** The label that names a type's kind (`Object` for records and maps, `Array` for tuples, `Any` for unions). */
export const kindLabel = (t: Type): string => (t.kind === 'Tuple' ? 'Array' : t.kind === 'Union' ? 'Any' : t.kind);
