/**
 * Type ADT → TypeScript: the `.d.ts` that `gramkit types` writes, so that an implementation is
 * checked by the compiler against its specification.
 *
 * Per tool `getWeather`: `GetWeatherArgs` (what the implementation receives: validated, defaults
 * filled in, so a parameter with a default is always present), `GetWeatherInput` (what a caller or a
 * model may send: parameters with defaults optional; only written when it differs) and
 * `GetWeatherResult`; and a `Tools` map from tool name to `{args, input, result}`.
 *
 * Mapping: String → string, Integer/Number → number, Boolean → boolean, Null → null, Any → unknown,
 * `[T]` → `T[]`, `(A, B)` → `[A, B]`, records → object types (`?` for optional fields), `Map T` →
 * `{ [key: string]: T }`, `A | B` → `A | B`, `enum`/`const` of scalars → literal unions. Open records
 * get no index signature (it would hide misspelled properties); descriptions, defaults, formats
 * and bounds become JSDoc.
 */
import type { JsonValue } from '../core/json-schema.js';
import type { ToolSpecification } from './tool-spec.js';
import { toolSpecSignature } from './tool-spec.js';
import type { Field, Keywords, Type, TypeSignature } from '../types/types.js';
import { isLeft } from '../core/either.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** `args`: defaults filled in (what an implementation receives); `input`: as sent by a caller. */
export type TypeView = 'args' | 'input';

export interface TypeScriptOptions {
  /** A comment written at the top of the file. */
  readonly header?: string;
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const RESERVED = new Set([
  'break',
  'case',
  'catch',
  'class',
  'const',
  'continue',
  'debugger',
  'default',
  'delete',
  'do',
  'else',
  'enum',
  'export',
  'extends',
  'false',
  'finally',
  'for',
  'function',
  'if',
  'import',
  'in',
  'instanceof',
  'new',
  'null',
  'return',
  'super',
  'switch',
  'this',
  'throw',
  'true',
  'try',
  'typeof',
  'var',
  'void',
  'while',
  'with',
]);

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** A property key: bare when it is an identifier, else quoted. */
export const propertyKey = (k: string): string => (IDENT.test(k) ? k : JSON.stringify(k));

/** `get_weather.v2` → `GetWeatherV2` (a type name; prefixed when it would start with a digit). */
export const pascalCase = (name: string): string => {
  const words = name.split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
  let out = words.map((w) => (w[0] as string).toUpperCase() + w.slice(1)).join('');
  if (out === '' || /^[0-9]/.test(out)) out = `T${out}`;
  if (RESERVED.has(out)) out = `${out}Tool`;
  return out;
};

const commentText = (s: string): string => s.replace(/\*\//g, '*\\/');

/** JSDoc lines for a type's documentation and constraints (empty when there is nothing to say). */
const docLines = (m: Keywords, view: TypeView): string[] => {
  const lines: string[] = [];
  if (m.title !== undefined) lines.push(commentText(m.title));
  if (m.description !== undefined) lines.push(...commentText(m.description).split('\n'));
  const facts: string[] = [];
  if (m.format !== undefined) facts.push(`format: ${m.format}`);
  if (m.pattern !== undefined) facts.push(`pattern: ${commentText(m.pattern)}`);
  for (const k of [
    'minimum',
    'maximum',
    'exclusiveMinimum',
    'exclusiveMaximum',
    'multipleOf',
    'minLength',
    'maxLength',
    'minItems',
    'maxItems',
    'minProperties',
    'maxProperties',
  ] as const) {
    if (m[k] !== undefined) facts.push(`${k}: ${m[k] as number}`);
  }
  if (m.uniqueItems === true) facts.push('unique items');
  if (facts.length > 0) lines.push(facts.join('; '));
  if (m.default !== undefined) lines.push(`@default ${commentText(JSON.stringify(m.default))}${view === 'args' ? ' (filled in before the call)' : ''}`);
  if (m.examples !== undefined) for (const e of m.examples) lines.push(`@example ${commentText(JSON.stringify(e))}`);
  if (m.deprecated === true) lines.push('@deprecated');
  return lines;
};

const jsDoc = (lines: ReadonlyArray<string>, indent: string): string => {
  if (lines.length === 0) return '';
  if (lines.length === 1) return `${indent}/** ${lines[0] as string} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} *${l === '' ? '' : ` ${l}`}`).join('\n')}\n${indent} */\n`;
};

const isScalar = (v: JsonValue): v is string | number | boolean | null => v === null || typeof v !== 'object';

const literal = (v: string | number | boolean | null): string => (typeof v === 'string' ? JSON.stringify(v) : String(v));

const needsParens = (s: string): boolean => /[|&]/.test(s.replace(/\{[^}]*\}|\[[^\]]*\]|"(?:[^"\\]|\\.)*"/g, ''));

// -------------------------------------------------------------------------------------------------
// types
// -------------------------------------------------------------------------------------------------

/** The TypeScript type of a gram type (`indent` is the indentation of the line it starts on). */
export const typeToTypeScript = (t: Type, view: TypeView = 'input', indent = ''): string => {
  const values = t.meta.const !== undefined ? [t.meta.const] : t.meta.enum;
  if (values !== undefined && values.length > 0 && values.every(isScalar)) {
    return [...new Set(values.map((v) => literal(v as string | number | boolean | null)))].join(' | ');
  }
  switch (t.kind) {
    case 'String':
      return 'string';
    case 'Integer':
    case 'Number':
      return 'number';
    case 'Boolean':
      return 'boolean';
    case 'Null':
      return 'null';
    case 'Any':
      return 'unknown';
    case 'Array': {
      const inner = typeToTypeScript(t.items, view, indent);
      return needsParens(inner) ? `(${inner})[]` : `${inner}[]`;
    }
    case 'Tuple':
      return `[${t.items.map((i) => typeToTypeScript(i, view, indent)).join(', ')}]`;
    case 'Union':
      return t.members.map((m) => typeToTypeScript(m, view, indent)).join(' | ');
    case 'Object':
      return objectBody(t.fields, t.additional, view, indent);
  }
};

const fieldOptional = (f: Field, view: TypeView): boolean => f.optional && !(view === 'args' && f.type.meta.default !== undefined);

const objectBody = (fields: ReadonlyArray<Field>, additional: false | Type | undefined, view: TypeView, indent: string): string => {
  const inner = `${indent}  `;
  const lines: string[] = [];
  for (const f of fields) {
    lines.push(
      `${jsDoc(docLines(f.type.meta, view), inner)}${inner}${propertyKey(f.name)}${fieldOptional(f, view) ? '?' : ''}: ${typeToTypeScript(f.type, view, inner)};`,
    );
  }
  if (additional !== undefined && additional !== false) {
    const value = fields.length === 0 ? typeToTypeScript(additional, view, inner) : 'unknown';
    lines.push(`${inner}[key: string]: ${value};`);
  }
  if (lines.length === 0) return additional === false ? 'Record<string, never>' : '{}';
  return `{\n${lines.join('\n')}\n${indent}}`;
};

/** Whether a view of the arguments differs from the other (some default is filled in). */
const hasDefaults = (t: Type): boolean => {
  if (t.meta.default !== undefined) return true;
  switch (t.kind) {
    case 'Array':
      return hasDefaults(t.items);
    case 'Tuple':
      return t.items.some(hasDefaults);
    case 'Union':
      return t.members.some(hasDefaults);
    case 'Object':
      return t.fields.some((f) => hasDefaults(f.type)) || (t.additional !== undefined && t.additional !== false && hasDefaults(t.additional));
    default:
      return false;
  }
};

// -------------------------------------------------------------------------------------------------
// declarations
// -------------------------------------------------------------------------------------------------

/** The declarations of one tool, with type names derived from `base` (e.g. `SayHello`). */
export const signatureDeclarations = (base: string, s: TypeSignature, description?: string, toolName?: string): string => {
  const head = jsDoc(
    [
      ...(description !== undefined ? commentText(description).split('\n') : []),
      ...(toolName !== undefined ? [`Arguments of tool \`${toolName}\`, as the implementation receives them (validated, defaults filled in).`] : []),
    ],
    '',
  );
  const out: string[] = [];
  const argsBody = objectBody(s.args.fields, s.args.additional, 'args', '');
  out.push(`${head}export interface ${base}Args ${argsBody === 'Record<string, never>' ? '{}' : argsBody}`);
  if (hasDefaults(s.args)) {
    const inputBody = objectBody(s.args.fields, s.args.additional, 'input', '');
    out.push(
      `${jsDoc([`Arguments of tool \`${toolName ?? base}\` as a caller or a model may send them (parameters with defaults may be left out).`], '')}export interface ${base}Input ${inputBody === 'Record<string, never>' ? '{}' : inputBody}`,
    );
  }
  out.push(
    `${jsDoc([`Result of tool \`${toolName ?? base}\`.`, ...docLines(s.returns.type.meta, 'input')], '')}export type ${base}Result = ${typeToTypeScript(s.returns.type, 'input', '')};`,
  );
  return out.join('\n\n');
};

/** A `.d.ts` module with the argument and result types of every tool, and a `Tools` map. */
export const toolsToTypeScript = (tools: ReadonlyArray<ToolSpecification>, options: TypeScriptOptions = {}): string => {
  const used = new Map<string, number>();
  const parts: string[] = [];
  const entries: string[] = [];
  for (const tool of tools) {
    const sig = toolSpecSignature(tool);
    if (isLeft(sig)) continue;
    let base = pascalCase(tool.name);
    const n = used.get(base) ?? 0;
    used.set(base, n + 1);
    if (n > 0) base = `${base}${n + 1}`;
    parts.push(signatureDeclarations(base, sig.right, tool.description, tool.name));
    const input = hasDefaults(sig.right.args) ? `${base}Input` : `${base}Args`;
    entries.push(`  ${propertyKey(tool.name)}: { args: ${base}Args; input: ${input}; result: ${base}Result };`);
  }
  const header =
    options.header !== undefined
      ? `${options.header
          .split('\n')
          .map((l) => `// ${l}`.trimEnd())
          .join('\n')}\n\n`
      : '';
  const map = `/** Every tool of the file: its arguments (as received), its input (as sent) and its result. */\nexport interface Tools {\n${entries.join('\n')}${entries.length > 0 ? '\n' : ''}}\n`;
  return `${header}${parts.map((p) => `${p}\n`).join('\n')}${parts.length > 0 ? '\n' : ''}${map}`;
};
