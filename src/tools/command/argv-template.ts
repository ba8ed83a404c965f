/**
 * Argument templates of command tools: `["grep", "-n", "--", "{pattern}", "{file}"]`.
 *
 * - `{name}` is replaced by the argument `name`; `{{` and `}}` write literal braces.
 * - Each element of the template is exactly one argument of the program, whatever the values hold
 *   (spaces, quotes, `;`, `$(...)`, newlines): nothing is split and no shell ever runs.
 * - An element whose placeholder has no value (an optional argument left out) is left out; an
 *   element that is an array (`["--limit", "{limit}"]`) is a group, left out as a whole when any of
 *   its placeholders has no value.
 * - A value that would start an argument with `-` is refused unless the element comes after a
 *   literal `--` or the tool sets `allowLeadingDash` (otherwise `{file}` = `--output=/etc/x` would
 *   be read as an option).
 */
import { CommandCodes } from './codes.js';
import { left, right, type Either, isLeft } from '../../core/either.js';
import { error, type Diagnostic } from '../../core/diagnostic.js';
import { scalarText } from '../http/url-template.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export type ArgPart = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'placeholder'; readonly name: string };

/** One argument: its parts. */
export type ArgTemplate = ReadonlyArray<ArgPart>;

/** An element of the argv template: one argument, or a group of arguments kept or left out together. */
export type ArgvElement = { readonly kind: 'arg'; readonly arg: ArgTemplate } | { readonly kind: 'group'; readonly args: ReadonlyArray<ArgTemplate> };

export interface ArgvTemplate {
  readonly program: string;
  readonly elements: ReadonlyArray<ArgvElement>;
  readonly names: ReadonlyArray<string>;
}

export interface ArgProblem {
  readonly name: string;
  readonly message: string;
}

// -------------------------------------------------------------------------------------------------
// parsing
// -------------------------------------------------------------------------------------------------

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Parses one templated string (`--out={file}`); `where` names it in messages. */
export const parseArgTemplate = (source: string, where: string): Either<ReadonlyArray<Diagnostic>, ArgTemplate> => {
  const parts: ArgPart[] = [];
  let text = '';
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '{' && source[i + 1] === '{') {
      text += '{';
      i++;
    } else if (ch === '}' && source[i + 1] === '}') {
      text += '}';
      i++;
    } else if (ch === '{') {
      const close = source.indexOf('}', i + 1);
      const name = close < 0 ? '' : source.slice(i + 1, close);
      if (close < 0 || !NAME.test(name))
        return left([
          error(CommandCodes.TEMPLATE_SYNTAX, `${where}: "${close < 0 ? source.slice(i) : source.slice(i, close + 1)}" is not a placeholder`, {
            hint: 'a placeholder is {name} with an identifier inside; write {{ and }} for literal braces (e.g. "{{print $1}}")',
          }),
        ]);
      if (text !== '') parts.push({ kind: 'text', text });
      text = '';
      parts.push({ kind: 'placeholder', name });
      i = close;
    } else if (ch === '}') {
      return left([error(CommandCodes.TEMPLATE_SYNTAX, `${where}: a lone "}" at offset ${i}`, { hint: 'write }} for a literal brace' })]);
    } else text += ch;
  }
  if (text !== '' || parts.length === 0) parts.push({ kind: 'text', text });
  return right(parts);
};

export const parseArgvTemplate = (argv: ReadonlyArray<string | ReadonlyArray<string>>, where = 'argv'): Either<ReadonlyArray<Diagnostic>, ArgvTemplate> => {
  const problems: Diagnostic[] = [];
  const [first, ...rest] = argv;
  if (first === undefined) return left([error(CommandCodes.ARGV_EMPTY, `${where} is empty: its first element names the program`)]);
  if (typeof first !== 'string' || first === '' || /[{}]/.test(first.replace(/\{\{|\}\}/g, '')))
    problems.push(
      error(CommandCodes.PROGRAM_PLACEHOLDER, `${where}[0] must be the program, written literally`, {
        hint: 'a placeholder (or a group) cannot choose the program: that would let the model run anything',
      }),
    );
  const elements: ArgvElement[] = [];
  rest.forEach((el, i) => {
    const at = `${where}[${i + 1}]`;
    if (typeof el === 'string') {
      const t = parseArgTemplate(el, at);
      if (isLeft(t)) problems.push(...t.left);
      else elements.push({ kind: 'arg', arg: t.right });
      return;
    }
    if (el.length === 0) {
      problems.push(error(CommandCodes.GROUP_EMPTY, `${at} is an empty group`));
      return;
    }
    const args: ArgTemplate[] = [];
    el.forEach((a, j) => {
      const t = parseArgTemplate(a, `${at}[${j}]`);
      if (isLeft(t)) problems.push(...t.left);
      else args.push(t.right);
    });
    elements.push({ kind: 'group', args });
  });
  if (problems.length > 0) return left(problems);
  const program = typeof first === 'string' ? first.replace(/\{\{/g, '{').replace(/\}\}/g, '}') : '';
  const names = elements.flatMap((e) => (e.kind === 'arg' ? [e.arg] : e.args).flatMap((a) => a.flatMap((p) => (p.kind === 'placeholder' ? [p.name] : []))));
  return right({ program, elements, names });
};

// -------------------------------------------------------------------------------------------------
// rendering
// -------------------------------------------------------------------------------------------------

/** The value of an argument as the text of one program argument (arrays and objects as JSON); undefined when absent. */
export const argText = (v: unknown): string | undefined => (Array.isArray(v) ? JSON.stringify(v) : scalarText(v, ','));

/** The program's argv for these arguments. */
export const renderArgv = (t: ArgvTemplate, lookup: (name: string) => unknown, allowLeadingDash: boolean): Either<ArgProblem, ReadonlyArray<string>> => {
  const out: string[] = [t.program];
  let afterDoubleDash = false;
  const render = (arg: ArgTemplate): Either<ArgProblem, string> | undefined => {
    let s = '';
    // the placeholder whose value gave the element its first character (undefined: the template's text did)
    let first: string | undefined;
    for (const p of arg) {
      if (p.kind === 'text') {
        s += p.text;
        continue;
      }
      const v = argText(lookup(p.name));
      if (v === undefined) return undefined;
      if (v.includes('\0')) return left({ name: p.name, message: 'must not contain a NUL character' });
      if (s === '' && v !== '') first = p.name;
      s += v;
    }
    // the rendered element is checked, not each value: `{a}{b}` with a = "" and b = "--output=x` is an option
    if (first !== undefined && s.startsWith('-') && !allowLeadingDash && !afterDoubleDash)
      return left({ name: first, message: `must not start with "-": it would be read as an option (the tool can put "--" before it)` });
    return right(s);
  };
  for (const el of t.elements) {
    const args = el.kind === 'arg' ? [el.arg] : el.args;
    const rendered: string[] = [];
    let absent = false;
    for (const a of args) {
      const r = render(a);
      if (r === undefined) {
        absent = true;
        break;
      }
      if (isLeft(r)) return r;
      rendered.push(r.right);
    }
    if (absent) continue;
    out.push(...rendered);
    if (el.kind === 'arg' && el.arg.length === 1 && el.arg[0]?.kind === 'text' && el.arg[0].text === '--') afterDoubleDash = true;
  }
  return right(out);
};
