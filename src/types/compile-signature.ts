/**
 * A gram path → a type signature: the compiler. A signature is a path of nodes joined by right
 * arrows; the last node is the return type, every earlier node a parameter in order. A leading
 * `(::Arguments {...})` node carries keywords of the arguments object itself. Each node's
 * properties are read by compile-type.ts; here are the nodes, their names and identities (a bare
 * `(city)` refers to a parameter another signature of the file defines), and the path.
 */
import { type Checked, left, right } from '../core/either.js';
import type { Label, NodePattern, PathPattern } from '../gram/ast.js';
import { hasSubject, isBareIdentity, subjectSpan } from '../gram/subject.js';
import { type Span, span as mkSpan, spanOf } from '../core/span.js';
import { SpecCodes } from './codes.js';
import { ARGUMENTS_LABEL } from './print-signature.js';
import { TYPE_NAMES } from './type-expr.js';
import { type Field, type Keywords, type ReturnType, type Type, type TypeSignature, field, objectType, returnType, typeSignature } from './types.js';
import {
  type Base,
  buildType,
  checkUnknownKeys,
  checkValues,
  type Env,
  hasErrors,
  keywords,
  labelType,
  optionality,
  propsOf,
  type Props,
  report,
  stringOf,
  typeFromValue,
} from './compile-type.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** What the compiler needs besides the path. */
export interface CompileContext {
  /** The whole source text the path's spans point into. */
  readonly source: string;
  readonly file?: string;
  /**
   * Resolves a bare `(name)` node to the parameter that another signature of the same file
   * defines with that identifier (gram identity: the node is a reference).
   */
  readonly resolve?: (name: string) => Field | undefined;
  /** Whether a name has a definition in the file (that may have failed to compile, already reported). */
  readonly isDefined?: (name: string) => boolean;
}

/** A node of a signature that defines an identifier (for the file-level consistency check). */
export interface NamedNode {
  readonly name: string;
  readonly role: 'parameter' | 'return';
  readonly field: Field;
  readonly node: NodePattern;
}

/** A compiled signature with the nodes that define or reference identifiers. */
export interface CompiledSignature {
  readonly signature: TypeSignature;
  readonly definitions: ReadonlyArray<NamedNode>;
  readonly references: ReadonlyArray<{ readonly name: string; readonly node: NodePattern }>;
}

// -------------------------------------------------------------------------------------------------
// nodes
// -------------------------------------------------------------------------------------------------

const isEmptyNode = (n: NodePattern): boolean => !hasSubject(n);

const isArgumentsNode = (n: NodePattern): boolean => n.labels.length === 1 && n.labels[0]?.name === ARGUMENTS_LABEL;

/** A node with only an identifier: a reference to a definition elsewhere in the file. */
const referenceName = (n: NodePattern): string | undefined => (isBareIdentity(n) ? n.identifier.value : undefined);

/** The type of a parameter or return node from its label and record. */
const nodeType = (
  n: NodePattern,
  env: Env,
  role: 'parameter' | 'return',
  what: string,
): { readonly type: Type; readonly maybe: boolean; readonly props: Props } | undefined => {
  const props = propsOf(n.record?.properties ?? []);
  checkUnknownKeys(props, role, env, what);
  const labels = n.labels;
  if (labels.length > 1) {
    const extra = labels[1] as Label;
    report(
      env,
      SpecCodes.MULTIPLE_TYPES,
      `${what} has ${labels.length} labels; a node takes exactly one type`,
      mkSpan(extra.start, (labels[labels.length - 1] as Label).end),
      'keep one type label, e.g. `::String`',
    );
    return undefined;
  }
  let base: Base | undefined;
  if (labels.length === 1) {
    const l = labels[0] as Label;
    if (l.name === ARGUMENTS_LABEL) {
      report(env, SpecCodes.ARGUMENTS_POSITION, `\`${ARGUMENTS_LABEL}\` describes the arguments object and must be the first node`, spanOf(l));
      return undefined;
    }
    base = labelType(l, env, role === 'parameter');
    if (base === undefined) return undefined;
  } else {
    report(
      env,
      SpecCodes.MISSING_TYPE,
      `${what} has no type label`,
      subjectSpan(n) ?? spanOf(n),
      `write the type after the name, e.g. \`(${n.identifier?.value ?? ''}::String)\`; known types: ${Object.keys(TYPE_NAMES).join(', ')}`,
    );
    return undefined;
  }
  if (role === 'return' && base.maybe) {
    report(env, SpecCodes.MAYBE_POSITION, 'a return type cannot be `Maybe`', base.span, 'for a result that may be null write `T | Null`');
    return undefined;
  }
  const t = buildType(base, props, spanOf(n), env, role, what, SpecCodes.MISSING_TYPE);
  if (t === undefined) return undefined;
  if (role === 'return' && t.maybe) {
    report(
      env,
      SpecCodes.MAYBE_POSITION,
      'a return type cannot be `Maybe`',
      spanOf(props.get('type')?.value ?? n),
      'for a result that may be null write `T | Null`',
    );
    return undefined;
  }
  return { ...t, props };
};

/**
 * The name of an anonymous parameter, `(::String)`: `arg` and its position among the parameters,
 * from 1 (`(::Text)==>(::String)` takes `{"arg1": "..."}`).
 */
export const anonymousParamName = (index: number): string => `arg${index + 1}`;

const isAnonymous = (n: NodePattern): boolean => n.identifier === undefined && !(n.record?.properties ?? []).some((p) => p.key === 'paramName');

/** The name a parameter node declares (its identifier, else a string `paramName`, else its position), if any. */
const declaredName = (n: NodePattern, index: number): string | undefined => {
  const id = n.identifier?.value;
  if (id !== undefined) return id;
  const pn = n.record?.properties.find((p) => p.key === 'paramName');
  if (pn === undefined) return anonymousParamName(index);
  return pn.value.kind === 'String' && pn.value.value !== '' ? pn.value.value : undefined;
};

/** A parameter node → field (name from the identifier or `paramName`). */
const parameter = (
  n: NodePattern,
  env: Env,
  index: number,
  resolve: CompileContext['resolve'],
  isDefined?: CompileContext['isDefined'],
): { field: Field; defines: boolean } | undefined => {
  const ref = referenceName(n);
  if (ref !== undefined) {
    const def = resolve?.(ref);
    if (def !== undefined) return { field: field(def.name, def.type, def.optional, spanOf(n)), defines: false };
    if (isDefined?.(ref) === true) return undefined;
    report(
      env,
      SpecCodes.MISSING_TYPE,
      `parameter \`${ref}\` has no type${resolve !== undefined ? ', and no other signature in this file defines it' : ''}`,
      spanOf(n),
      `write its type: \`(${ref}::String)\``,
    );
    return undefined;
  }
  const id = n.identifier?.value;
  const props = n.record?.properties ?? [];
  const pn = props.find((p) => p.key === 'paramName');
  const pnValue = pn === undefined ? undefined : stringOf(pn, env);
  if (pn !== undefined && pnValue === undefined) return undefined;
  const name = id ?? pnValue ?? (pn === undefined ? anonymousParamName(index) : undefined);
  const what = name === undefined ? `parameter ${index + 1}` : `parameter \`${name}\``;
  if (id !== undefined && pnValue !== undefined && id !== pnValue) {
    report(
      env,
      SpecCodes.PARAM_NAME_MISMATCH,
      `parameter is named \`${id}\` by its identifier but "${pnValue}" by \`paramName\``,
      spanOf(pn?.value),
      'keep one of the two names',
      [{ message: 'identifier', span: spanOf(n.identifier) as Span }],
    );
  }
  if (name === undefined || name === '') {
    report(
      env,
      SpecCodes.MISSING_PARAM_NAME,
      `${what} has no name`,
      spanOf(n),
      'name it with an identifier, `(city::String)`, or with `paramName`, `(::String {paramName: "city"})`',
    );
  }
  const t = nodeType(n, env, 'parameter', what);
  if (t === undefined || name === undefined || name === '') return undefined;
  const optional = optionality(t.props, t, env);
  if (optional === undefined) return undefined;
  return { field: field(name, t.type, optional, spanOf(n)), defines: id !== undefined };
};

const argumentsNode = (n: NodePattern, env: Env): { readonly meta: Keywords; readonly additional?: false | Type } | undefined => {
  if (n.identifier !== undefined) {
    report(env, SpecCodes.INVALID_PARAM_PROPERTY, `the \`${ARGUMENTS_LABEL}\` node takes no name`, spanOf(n.identifier));
    return undefined;
  }
  const start = env.out.length;
  const props = propsOf(n.record?.properties ?? []);
  checkUnknownKeys(props, 'arguments', env, `the \`${ARGUMENTS_LABEL}\` node`);
  // closed unless `additionalProperties` says otherwise (`true`: open; a type: a map beyond the parameters)
  let additional: false | Type | undefined = false;
  const addP = props.get('additionalProperties');
  if (addP !== undefined) {
    const v = addP.value;
    if (v.kind === 'Boolean') additional = v.value ? undefined : false;
    else additional = typeFromValue(v, env, SpecCodes.MALFORMED_TYPE, '`additionalProperties`')?.type;
  }
  const meta = keywords(objectType([]), props, env, 'the arguments');
  if (meta === undefined || hasErrors(env.out, start)) return undefined;
  checkValues(objectType([], meta, additional), props, env, 'the arguments');
  if (hasErrors(env.out, start)) return undefined;
  return additional === undefined ? { meta } : { meta, additional };
};

// -------------------------------------------------------------------------------------------------
// signatures
// -------------------------------------------------------------------------------------------------

/** Compiles a path (from a parsed document) to a signature, with every diagnostic. */
export const compileSignature = (path: PathPattern, ctx: CompileContext): Checked<CompiledSignature> => {
  const env: Env = { source: ctx.source, out: [], ...(ctx.file !== undefined ? { file: ctx.file } : {}) };
  const nodes = path.kind === 'Node' ? [path] : path.nodes;
  if (path.kind === 'Path') {
    for (const a of path.arrows) {
      if (a.direction !== 'right') {
        const written = a.direction === 'left' ? 'a left arrow' : a.direction === 'undirected' ? 'an undirected arrow' : 'a bidirectional arrow';
        report(
          env,
          SpecCodes.ARROW_DIRECTION,
          `${written} in a signature: parameters flow left to right, into the return type`,
          spanOf(a),
          `write \`${a.family}${a.family}>\` instead`,
        );
      }
      if (a.bracketed || hasSubject(a)) {
        report(env, SpecCodes.ARROW_SUBJECT, 'arrows in a signature carry no labels or properties', spanOf(a), 'write a plain arrow, `==>`');
      }
    }
  }
  const last = nodes[nodes.length - 1] as NodePattern;
  let params = nodes.slice(0, -1);
  let argsNode: NodePattern | undefined;
  if (params.length > 0 && isArgumentsNode(params[0] as NodePattern)) {
    argsNode = params[0] as NodePattern;
    params = params.slice(1);
  }
  if (params.length === 1 && isEmptyNode(params[0] as NodePattern) && argsNode === undefined) params = [];

  const definitions: NamedNode[] = [];
  const references: Array<{ name: string; node: NodePattern }> = [];
  const fields: Field[] = [];
  const seen = new Map<string, Span>();
  params.forEach((n, i) => {
    if (isEmptyNode(n)) {
      report(
        env,
        SpecCodes.MISSING_PARAM_NAME,
        `parameter ${i + 1} is an empty node \`()\``,
        spanOf(n),
        '`()` means "no parameters" only as the single node before the return type',
      );
      return;
    }
    if (isArgumentsNode(n)) {
      report(env, SpecCodes.ARGUMENTS_POSITION, `\`${ARGUMENTS_LABEL}\` describes the arguments object and must be the first node`, spanOf(n));
      return;
    }
    const ref = referenceName(n);
    const name = declaredName(n, i);
    const prev = name === undefined ? undefined : seen.get(name);
    if (name !== undefined && prev !== undefined) {
      const anonymous = isAnonymous(n) ? ` (parameter ${i + 1} has no name, so it is named \`${name}\`)` : '';
      report(
        env,
        SpecCodes.DUPLICATE_PARAM,
        `parameter \`${name}\` is declared twice${anonymous}`,
        spanOf(n),
        'parameter names are unique within a signature: name the parameters',
        [{ message: 'first declared here', span: prev }],
      );
    } else if (name !== undefined) {
      seen.set(name, spanOf(n));
    }
    const p = parameter(n, env, i, ctx.resolve, ctx.isDefined);
    if (p === undefined || prev !== undefined) return;
    if (ref !== undefined) references.push({ name: ref, node: n });
    fields.push(p.field);
    if (p.defines) definitions.push({ name: p.field.name, role: 'parameter', field: p.field, node: n });
  });

  // the arguments object is closed by default: an undeclared argument is an error
  let args: { readonly meta: Keywords; readonly additional?: false | Type } | undefined = { meta: {}, additional: false };
  if (argsNode !== undefined) args = argumentsNode(argsNode, env);

  let ret: ReturnType | undefined;
  if (isEmptyNode(last)) {
    report(
      env,
      SpecCodes.MISSING_RETURN,
      nodes.length === 1 ? 'an empty signature `()` has no return type' : 'the signature has no return type: its last node `()` is empty',
      spanOf(last),
      'end the signature with the type of the result, e.g. `==>(::String)`',
    );
  } else if (isArgumentsNode(last)) {
    report(
      env,
      SpecCodes.MISSING_RETURN,
      `the signature ends with the \`${ARGUMENTS_LABEL}\` node, not a return type`,
      spanOf(last),
      'end the signature with the type of the result, e.g. `==>(::String)`',
    );
  } else {
    const ref = referenceName(last);
    if (ref !== undefined) {
      const def = ctx.resolve?.(ref);
      if (def !== undefined) {
        ret = returnType(def.type, ref, spanOf(last));
        references.push({ name: ref, node: last });
      } else if (ctx.isDefined?.(ref) === true) {
        // its definition failed to compile and was reported there
      } else {
        report(
          env,
          SpecCodes.MISSING_RETURN,
          `the last node \`(${ref})\` has no type, so the signature has no return type`,
          spanOf(last),
          `the last node of a signature is the type of the result: write \`(${ref}::String)\` or add \`==>(::String)\``,
        );
      }
    } else {
      const t = nodeType(last, env, 'return', 'the return type');
      const id = last.identifier?.value;
      if (t !== undefined) {
        ret = returnType(t.type, id, spanOf(last));
        if (id !== undefined) definitions.push({ name: id, role: 'return', field: field(id, t.type, false, spanOf(last)), node: last });
      }
    }
  }
  if (ret === undefined || args === undefined || hasErrors(env.out)) return left(env.out);
  const sig = typeSignature(fields, ret, args.meta, args.additional, spanOf(path));
  return right({ value: { signature: sig, definitions, references }, warnings: env.out });
};

/** Whether a node defines an identifier (it has an identifier and a label or a record). */
export const definesIdentifier = (n: NodePattern): boolean =>
  n.identifier !== undefined && (n.labels.length > 0 || n.record !== undefined) && !isArgumentsNode(n);

/**
 * What a named node defines, compiled on its own (its diagnostics are discarded: the signature it
 * belongs to reports them). The file loader compares the definitions of one identifier.
 */
export const compileDefinition = (n: NodePattern, role: 'parameter' | 'return', ctx: CompileContext): Field | undefined => {
  const env: Env = { source: ctx.source, out: [] };
  if (role === 'parameter') {
    const p = parameter(n, env, 0, undefined);
    return p === undefined || hasErrors(env.out) ? undefined : p.field;
  }
  const id = n.identifier?.value;
  const t = nodeType(n, env, 'return', 'the return type');
  return t === undefined || id === undefined || hasErrors(env.out) ? undefined : field(id, t.type, false, spanOf(n));
};
