/**
 * `${name}` templates: literal text with placeholders. `$${` writes a literal `${`.
 * Names are identifiers (`[A-Za-z_][A-Za-z0-9_]*`). Parsing reports every problem at once; the
 * template parts keep their offsets so later stages can tell where a placeholder lands (path,
 * query, header, JSON string, ...).
 */
import { left, right, type Either } from '../core/either.js';
import { error, type Diagnostic } from '../core/diagnostic.js';
import { HttpCodes } from './http/codes.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export type TemplatePart =
  | { readonly kind: 'text'; readonly text: string; readonly offset: number }
  | { readonly kind: 'placeholder'; readonly name: string; readonly offset: number };

export type Template = ReadonlyArray<TemplatePart>;

// -------------------------------------------------------------------------------------------------
// parsing
// -------------------------------------------------------------------------------------------------

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Splits `source` into text and placeholders. `where` names the field in messages
 * (`urlTemplate`, `headers.Authorization`).
 */
export const parseTemplate = (source: string, where: string): Either<ReadonlyArray<Diagnostic>, Template> => {
  const parts: TemplatePart[] = [];
  const problems: Diagnostic[] = [];
  let text = '';
  let textStart = 0;
  let i = 0;
  const flush = (): void => {
    if (text !== '') parts.push({ kind: 'text', text, offset: textStart });
    text = '';
  };
  while (i < source.length) {
    if (source.startsWith('$${', i)) {
      if (text === '') textStart = i;
      text += '${';
      i += 3;
      continue;
    }
    if (source.startsWith('${', i)) {
      const close = source.indexOf('}', i + 2);
      if (close < 0) {
        problems.push(
          error(HttpCodes.TEMPLATE_SYNTAX, `${where}: "\${" at offset ${i} is never closed by "}"`, {
            hint: 'write ${name}; write $${ for a literal "${"',
          }),
        );
        break;
      }
      const name = source.slice(i + 2, close).trim();
      if (!NAME.test(name))
        problems.push(
          error(HttpCodes.TEMPLATE_SYNTAX, `${where}: "\${${source.slice(i + 2, close)}}" is not a placeholder name`, {
            hint: 'placeholder names are identifiers: letters, digits and "_", not starting with a digit',
          }),
        );
      flush();
      parts.push({ kind: 'placeholder', name, offset: i });
      i = close + 1;
      textStart = i;
      continue;
    }
    if (text === '') textStart = i;
    text += source[i];
    i++;
  }
  flush();
  return problems.length > 0 ? left(problems) : right(parts);
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

export const placeholderNames = (t: Template): ReadonlyArray<string> => t.flatMap((p) => (p.kind === 'placeholder' ? [p.name] : []));

/** The template's text with every placeholder replaced by `stand` (for checks on its shape). */
export const literalText = (t: Template, stand: (name: string) => string): string => t.map((p) => (p.kind === 'text' ? p.text : stand(p.name))).join('');

/** A template that is exactly one placeholder. */
export const solePlaceholder = (t: Template): string | undefined => {
  const only = t.length === 1 ? t[0] : undefined;
  return only?.kind === 'placeholder' ? only.name : undefined;
};
