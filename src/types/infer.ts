/**
 * Type-level reading of a signature string: the TypeScript type of a tool's arguments and result,
 * inferred by the compiler from the literal text, so that `defineTool` (or any typed wrapper) can
 * check an implementation without a generated `.d.ts`.
 *
 *   type A = InferArgs<'(city::String)==>(days::Int {default: 1})==>(::String)'>;
 *   //   { city: string; days: number }   (defaults are filled in before the call)
 *   type I = InferInput<'(city::String)==>(days::Int {default: 1})==>(::String)'>;
 *   //   { city: string; days?: number }
 *   type R = InferResult<'(city::String)==>(::String)'>;   // string
 *
 * What it reads: parameter names (identifier or `paramName`), the type names, `[T]`, `Maybe T`,
 * `A | B`, flat records `{a: T, b: Maybe U}`, `type` and `elementType` strings, `enum` of strings,
 * `optional: true` and `default`. Anything it does not read (tuples, nested records, maps, the
 * structured `fields` form) is `unknown` — never a wrong type. The runtime compiler is the judge;
 * `gramkit types` writes exact declarations when inference is not enough.
 */

// -------------------------------------------------------------------------------------------------
// text utilities
// -------------------------------------------------------------------------------------------------

type Ws = ' ' | '\n' | '\t' | '\r';

/** Removes leading and trailing whitespace. */
export type Trim<S extends string> = S extends `${Ws}${infer R}` ? Trim<R> : S extends `${infer R}${Ws}` ? Trim<R> : S;

/** Replaces every `From` with `To`. */
type ReplaceAll<S extends string, From extends string, To extends string> = S extends `${infer A}${From}${infer B}` ? `${A}${To}${ReplaceAll<B, From, To>}` : S;

/** Line breaks and tabs as spaces, and `-->`, `~~>` as `==>`, with no space around arrows. */
type Normalize<S extends string> = Squeeze<
  ReplaceAll<ReplaceAll<ReplaceAll<ReplaceAll<ReplaceAll<S, '\r', ' '>, '\n', ' '>, '\t', ' '>, '-->', '==>'>, '~~>', '==>'>
>;
type Squeeze<S extends string> = S extends `${infer A} ==>${infer B}`
  ? Squeeze<`${A}==>${B}`>
  : S extends `${infer A}==> ${infer B}`
    ? Squeeze<`${A}==>${B}`>
    : S;

/** The nodes of a signature (the text between each `(` and `)`), in order. */
type Nodes<S extends string> = Trim<S> extends `(${infer N})==>${infer Rest}` ? [N, ...Nodes<Rest>] : Trim<S> extends `(${infer N})` ? [N] : [];

// -------------------------------------------------------------------------------------------------
// one node
// -------------------------------------------------------------------------------------------------

/** `name::Label {record}` → its parts (`:` and `::` alike). */
type Parts<N extends string> =
  Trim<N> extends `${infer Id}::${infer Rest}`
    ? SplitLabel<Trim<Id>, Rest>
    : Trim<N> extends `${infer Id}:${infer Rest}`
      ? SplitLabel<Trim<Id>, Rest>
      : { id: ''; label: ''; record: Trim<N> };
type SplitLabel<Id extends string, Rest extends string> =
  Trim<Rest> extends `${infer L}{${infer R}` ? { id: Id; label: Trim<L>; record: R } : { id: Id; label: Trim<Rest>; record: '' };

/** The value of `key: "..."` in a record text (either quote), or never. */
type StringProp<R extends string, K extends string> = R extends `${string}${K}:${infer V}` ? QuotedValue<Trim<V>> : never;
type QuotedValue<V extends string> = V extends `"${infer X}"${string}` ? X : V extends `'${infer X}'${string}` ? X : never;

type HasProp<R extends string, K extends string> = R extends `${string}${K}:${string}` ? true : false;
type IsOptionalTrue<R extends string> = R extends `${string}optional:${infer V}` ? (Trim<V> extends `true${string}` ? true : false) : false;

/** `enum: ["a", "b"]` → `"a" | "b"` (strings only), or never. */
type EnumOf<R extends string> = R extends `${string}enum:${infer V}` ? (Trim<V> extends `[${infer Items}]${string}` ? EnumItems<Items> : never) : never;
type EnumItems<S extends string> = S extends `${infer A},${infer B}` ? QuotedValue<Trim<A>> | EnumItems<B> : QuotedValue<Trim<S>>;

// -------------------------------------------------------------------------------------------------
// types
// -------------------------------------------------------------------------------------------------

/** A type name as TypeScript. */
type NameType<T extends string> = T extends 'Text' | 'String'
  ? string
  : T extends 'Int' | 'Integer' | 'Double' | 'Number' | 'Float'
    ? number
    : T extends 'Bool' | 'Boolean'
      ? boolean
      : T extends 'Null'
        ? null
        : T extends 'Object'
          ? Record<string, unknown>
          : T extends 'Array'
            ? unknown[]
            : unknown;

/** A type expression as TypeScript (`Maybe` is read by the caller: it is about the field). */
export type ExprType<E extends string> =
  Trim<E> extends `Maybe ${infer T}`
    ? ExprType<T>
    : Trim<E> extends `[${infer T}]`
      ? ExprType<T>[]
      : Trim<E> extends `{${infer F}}`
        ? RecordType<F>
        : Trim<E> extends `(${string}`
          ? unknown
          : Trim<E> extends `${infer A}|${infer B}`
            ? ExprType<A> | ExprType<B>
            : NameType<Trim<E>>;

/** A flat record `a: T, b: Maybe U`; nested brackets are not read (unknown). */
type RecordType<F extends string> = F extends `${string}{${string}` | `${string}[${string}`
  ? Record<string, unknown>
  : Flatten<
      { [K in FieldName<Split<F>> as FieldOptional<Split<F>, K> extends true ? never : K]: FieldType<Split<F>, K> } & {
        [K in FieldName<Split<F>> as FieldOptional<Split<F>, K> extends true ? K : never]?: FieldType<Split<F>, K>;
      }
    >;
type Split<F extends string> = F extends `${infer A},${infer B}` ? [Trim<A>, ...Split<B>] : Trim<F> extends '' ? [] : [Trim<F>];
type FieldName<Fs extends string[]> = Fs[number] extends infer X ? (X extends `${infer K}:${string}` ? Trim<K> : never) : never;
type FieldText<Fs extends string[], K extends string> = Fs[number] extends infer X
  ? X extends `${K}:${infer T}` | `${K} :${infer T}`
    ? Trim<T>
    : never
  : never;
type FieldOptional<Fs extends string[], K extends string> = FieldText<Fs, K> extends `Maybe ${string}` ? true : false;
type FieldType<Fs extends string[], K extends string> = ExprType<FieldText<Fs, K>>;
type Flatten<T> = { [K in keyof T]: T[K] };

/** The type of one node: its label, refined by `type`, `elementType` and `enum`. */
type NodeType<P extends { label: string; record: string }> = [EnumOf<P['record']>] extends [never]
  ? [StringProp<P['record'], 'type'>] extends [never]
    ? [StringProp<P['record'], 'elementType'>] extends [never]
      ? ExprType<P['label']>
      : ExprType<StringProp<P['record'], 'elementType'>>[]
    : ExprType<StringProp<P['record'], 'type'>>
  : EnumOf<P['record']>;

/** Whether the node's type is written `Maybe T` (in the label or in `type`). */
type IsMaybe<P extends { label: string; record: string }> = P['label'] extends `Maybe ${string}` ? true : StartsWithMaybe<StringProp<P['record'], 'type'>>;
/** `never` (no `type` property) is not `Maybe` (a bare `never extends X` would say it is). */
type StartsWithMaybe<T extends string> = [T] extends [never] ? false : T extends `Maybe ${string}` ? true : false;

type ParamName<P extends { id: string; record: string }> = P['id'] extends '' ? StringProp<P['record'], 'paramName'> : P['id'];

// -------------------------------------------------------------------------------------------------
// signatures
// -------------------------------------------------------------------------------------------------

type Params<S extends string> = Nodes<Normalize<S>> extends [...infer Ps extends string[], string] ? Ps : [];
type Last<S extends string> = Nodes<Normalize<S>> extends [...string[], infer R extends string] ? R : '';

/** The parameters that are not the `()` or `Arguments` node. */
type RealParams<Ps extends string[]> = Ps extends [infer H extends string, ...infer T extends string[]]
  ? Trim<H> extends '' | `::Arguments${string}` | `:Arguments${string}`
    ? RealParams<T>
    : [Parts<H>, ...RealParams<T>]
  : [];

type Entries<S extends string> = RealParams<Params<S>>[number];

/** Optional in the caller's view: `optional: true`, `Maybe`, or a default. */
type InputOptional<P extends { label: string; record: string }> =
  IsOptionalTrue<P['record']> extends true ? true : IsMaybe<P> extends true ? true : HasProp<P['record'], 'default'>;

/** Optional in the implementation's view: as the caller's, except that defaults are filled in. */
type ArgsOptional<P extends { label: string; record: string }> =
  HasProp<P['record'], 'default'> extends true ? false : IsOptionalTrue<P['record']> extends true ? true : IsMaybe<P>;

type Build<S extends string, Opt extends 'args' | 'input'> = Flatten<
  { [P in Entries<S> as (Opt extends 'args' ? ArgsOptional<P> : InputOptional<P>) extends true ? never : ParamName<P>]: NodeType<P> } & {
    [P in Entries<S> as (Opt extends 'args' ? ArgsOptional<P> : InputOptional<P>) extends true ? ParamName<P> : never]?: NodeType<P>;
  }
>;

/** The arguments an implementation receives (validated, defaults filled in). */
export type InferArgs<S extends string> = Build<S, 'args'>;

/** The arguments a caller or a model may send (parameters with a default may be left out). */
export type InferInput<S extends string> = Build<S, 'input'>;

/** The result type of a signature (its last node). */
export type InferResult<S extends string> = NodeType<Parts<Last<S>>>;

/** The signature of a tool pattern `[name:Tool {...} | <signature>]`. */
export type SignatureOf<G extends string> = G extends `${string}|${infer Sig}]` ? Trim<Sig> : G;

/** The arguments of the tool a gram tool pattern describes. */
export type InferToolArgs<G extends string> = InferArgs<SignatureOf<G>>;

/** The result of the tool a gram tool pattern describes. */
export type InferToolResult<G extends string> = InferResult<SignatureOf<G>>;
