/**
 * URL templates of HTTP tools: `https://api.example.com/v1/users/${id}/posts?limit=${limit}`.
 *
 * Each placeholder is encoded for the part of the URL it lands in, so that no value can change the
 * request's shape:
 * - path: percent-encoded as one segment (`/`, `?`, `#`, `&`, `%`, `\` are encoded); a value that
 *   would make a `.` or `..` segment, or an empty one, is refused (URL parsers resolve `..` and
 *   `%2e%2e` as "parent directory");
 * - query and fragment: percent-encoded (`&`, `=`, `#`, `+` included). In a pair that is exactly
 *   `name=${p}`, a missing value drops the pair and an array repeats it (`tag=a&tag=b`);
 * - host: only DNS labels (letters, digits, `-`, `.`), port: only digits.
 * Credentials in the URL (`user:pass@`) are refused: send them in a header.
 */
import { HttpCodes } from './codes.js';
import { left, right, type Either, isLeft } from '../../core/either.js';
import { error, type Diagnostic } from '../../core/diagnostic.js';
import { parseTemplate, type TemplatePart } from '../template.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export type UrlContext = 'host' | 'port' | 'path' | 'query' | 'fragment';

export type UrlPart = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'placeholder'; readonly name: string; readonly context: UrlContext };

export interface UrlTemplate {
  readonly source: string;
  /** `http://` or `https://`, as written. */
  readonly scheme: string;
  readonly authority: ReadonlyArray<UrlPart>;
  /** From the first `/` after the authority (empty when the template has no path). */
  readonly path: ReadonlyArray<UrlPart>;
  /** Pairs between `&`, without the leading `?`; undefined when there is no `?`. */
  readonly query?: ReadonlyArray<ReadonlyArray<UrlPart>>;
  /** Without the leading `#`; undefined when there is no `#`. */
  readonly fragment?: ReadonlyArray<UrlPart>;
  /** Every placeholder name, in order of appearance (with repeats). */
  readonly names: ReadonlyArray<string>;
  /** The host and port when the authority has no placeholder (`api.example.com`, `127.0.0.1:8080`). */
  readonly literalAuthority?: string;
}

/** Why a value cannot be placed: the placeholder's name and what is wrong (never the value itself). */
export interface RenderProblem {
  readonly name: string;
  readonly message: string;
}

// -------------------------------------------------------------------------------------------------
// parsing
// -------------------------------------------------------------------------------------------------

export const parseUrlTemplate = (source: string, where = 'urlTemplate'): Either<ReadonlyArray<Diagnostic>, UrlTemplate> => {
  const scheme = /^https?:\/\//i.exec(source)?.[0];
  if (scheme === undefined)
    return left([
      error(HttpCodes.URL_SCHEME, `${where} must start with http:// or https://, got "${source.slice(0, 40)}"`, {
        hint: 'the scheme is literal: a placeholder cannot choose it',
      }),
    ]);
  const parsed = parseTemplate(source.slice(scheme.length), where);
  if (isLeft(parsed)) return parsed;

  type Section = 'authority' | 'path' | 'query' | 'fragment';
  let section: Section = 'authority';
  const authority: UrlPart[] = [];
  const path: UrlPart[] = [];
  let query: UrlPart[][] | undefined;
  let fragment: UrlPart[] | undefined;
  let inBrackets = false; // IPv6 literal
  let afterPortColon = false;
  const problems: Diagnostic[] = [];

  const target = (): UrlPart[] => {
    switch (section) {
      case 'authority':
        return authority;
      case 'path':
        return path;
      case 'query': {
        const pairs = query!;
        return pairs[pairs.length - 1]!;
      }
      case 'fragment':
        return fragment!;
    }
  };
  const pushText = (ch: string): void => {
    const t = target();
    const last = t[t.length - 1];
    if (last?.kind === 'text') t[t.length - 1] = { kind: 'text', text: last.text + ch };
    else t.push({ kind: 'text', text: ch });
  };

  for (const part of parsed.right as ReadonlyArray<TemplatePart>) {
    if (part.kind === 'placeholder') {
      const context: UrlContext = section === 'authority' ? (afterPortColon ? 'port' : 'host') : section;
      target().push({ kind: 'placeholder', name: part.name, context });
      continue;
    }
    for (const ch of part.text) {
      if (section === 'authority') {
        if (ch === '[') inBrackets = true;
        else if (ch === ']') inBrackets = false;
        else if (ch === ':' && !inBrackets) afterPortColon = true;
        else if (ch === '@') {
          problems.push(
            error(HttpCodes.URL_CREDENTIALS, `${where} has credentials before "@", which are refused`, {
              hint: 'send credentials in a header, e.g. "Authorization": "Bearer ${TOKEN}"',
            }),
          );
        }
        if (ch === '/' || ch === '?' || ch === '#') {
          section = ch === '/' ? 'path' : ch === '?' ? 'query' : 'fragment';
          if (section === 'query') query = [[]];
          else if (section === 'fragment') fragment = [];
          if (ch === '/') pushText('/');
          continue;
        }
      } else if (section === 'path') {
        if (ch === '?' || ch === '#') {
          section = ch === '?' ? 'query' : 'fragment';
          if (section === 'query') query = [[]];
          else fragment = [];
          continue;
        }
      } else if (section === 'query') {
        if (ch === '#') {
          section = 'fragment';
          fragment = [];
          continue;
        }
        if (ch === '&') {
          query!.push([]);
          continue;
        }
      }
      pushText(ch);
    }
  }

  if (authority.length === 0) problems.push(error(HttpCodes.URL_HOST, `${where} has no host after "${scheme}"`));
  const names = [authority, path, ...(query ?? []), fragment ?? []].flatMap((ps) => ps.flatMap((p) => (p.kind === 'placeholder' ? [p.name] : [])));
  const literalAuthority = authority.every((p) => p.kind === 'text') ? authority.map((p) => (p as { text: string }).text).join('') : undefined;

  if (problems.length === 0) {
    // the shape must be a URL once sample values are in place
    const sample = (p: UrlPart): string => (p.kind === 'text' ? p.text : p.context === 'port' ? '80' : 'x');
    const text = `${scheme}${authority.map(sample).join('')}${path.map(sample).join('')}${query ? `?${query.map((q) => q.map(sample).join('')).join('&')}` : ''}${fragment ? `#${fragment.map(sample).join('')}` : ''}`;
    try {
      new URL(text);
    } catch {
      problems.push(error(HttpCodes.URL_INVALID, `${where} does not make a valid URL: "${source}"`));
    }
  }
  if (problems.length > 0) return left(problems);
  return right({
    source,
    scheme: scheme.toLowerCase(),
    authority,
    path,
    ...(query !== undefined ? { query } : {}),
    ...(fragment !== undefined ? { fragment } : {}),
    names,
    ...(literalAuthority !== undefined ? { literalAuthority } : {}),
  });
};

// -------------------------------------------------------------------------------------------------
// rendering
// -------------------------------------------------------------------------------------------------

/**
 * The URL with every placeholder replaced by its value, encoded for where it lands. `lookup`
 * gives a placeholder's value (undefined or null when absent).
 */
export const renderUrl = (t: UrlTemplate, lookup: (name: string) => unknown): Either<RenderProblem, string> => {
  let out = t.scheme;
  for (const p of t.authority) {
    if (p.kind === 'text') {
      out += p.text;
      continue;
    }
    const v = scalarText(lookup(p.name), ',');
    if (v === undefined) return left({ name: p.name, message: `a value is required: it is part of the host` });
    if (p.context === 'port' ? !/^\d{1,5}$/.test(v) : !/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$/.test(v))
      return left({ name: p.name, message: p.context === 'port' ? 'must be a port number' : 'must be a host name (letters, digits, "-" and ".")' });
    out += v;
  }

  let path = '';
  for (const p of t.path) {
    if (p.kind === 'text') {
      path += p.text;
      continue;
    }
    const value = lookup(p.name);
    const v = Array.isArray(value)
      ? value.map((e) => encodeURIComponent(scalarText(e, ',') ?? '')).join(',')
      : mapText(scalarText(value, ','), encodeURIComponent);
    if (v === undefined || v === '') return left({ name: p.name, message: 'a non-empty value is required: it is part of the URL path' });
    path += v;
  }
  // a value must not create a dot segment (URL parsers resolve "..", "%2e%2e" and friends)
  const templateDots = new Set(literalPathSegments(t.path));
  for (const seg of path.split('/')) {
    if (isDotSegment(seg) && !templateDots.has(seg)) {
      const culprit = t.path.find((p) => p.kind === 'placeholder') as { name: string } | undefined;
      return left({ name: placeholderOfDotSegment(t, lookup) ?? culprit?.name ?? '?', message: 'must not be "." or "..": it is a URL path segment' });
    }
  }
  out += path;

  if (t.query !== undefined) {
    const pairs: string[] = [];
    for (const pair of t.query) {
      const sole = soleValuePlaceholder(pair);
      if (sole !== undefined) {
        const value = lookup(sole.name);
        if (value === undefined || value === null) continue; // optional parameter left out: drop the pair
        if (Array.isArray(value)) {
          for (const e of value) pairs.push(sole.prefix + encodeURIComponent(scalarText(e, ',') ?? ''));
          continue;
        }
      }
      let s = '';
      for (const p of pair) s += p.kind === 'text' ? p.text : (mapText(scalarText(lookup(p.name), ','), encodeURIComponent) ?? '');
      pairs.push(s);
    }
    if (pairs.length > 0) out += `?${pairs.join('&')}`;
  }
  if (t.fragment !== undefined) {
    let s = '';
    for (const p of t.fragment) s += p.kind === 'text' ? p.text : (mapText(scalarText(lookup(p.name), ','), encodeURIComponent) ?? '');
    out += `#${s}`;
  }
  return right(out);
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/**
 * The text of a value where one string is expected: strings as they are, numbers and booleans
 * written out, arrays of scalars joined by `sep`, objects as JSON; undefined for undefined or null.
 */
export const scalarText = (v: unknown, sep: string): string | undefined => {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (Array.isArray(v) && v.every((e) => e === null || typeof e !== 'object')) return v.map((e) => scalarText(e, sep) ?? '').join(sep);
  return JSON.stringify(v);
};

const mapText = (v: string | undefined, f: (s: string) => string): string | undefined => (v === undefined ? undefined : f(v));

/** `name=${p}`: the pair's literal prefix (ending in `=`) and its placeholder. */
const soleValuePlaceholder = (pair: ReadonlyArray<UrlPart>): { readonly prefix: string; readonly name: string } | undefined => {
  const [first, second] = pair;
  if (pair.length === 2 && first?.kind === 'text' && first.text.endsWith('=') && !first.text.slice(0, -1).includes('=') && second?.kind === 'placeholder')
    return { prefix: first.text, name: second.name };
  if (pair.length === 1 && first?.kind === 'placeholder') return { prefix: '', name: first.name };
  return undefined;
};

const isDotSegment = (seg: string): boolean => /^(\.|%2e){1,2}$/i.test(seg);

const literalPathSegments = (path: ReadonlyArray<UrlPart>): ReadonlyArray<string> => {
  if (path.some((p) => p.kind === 'placeholder')) {
    // segments made only of template text
    const text = path.map((p) => (p.kind === 'text' ? p.text : '\u0000')).join('');
    return text.split('/').filter((s) => !s.includes('\u0000'));
  }
  return path
    .map((p) => (p as { text: string }).text)
    .join('')
    .split('/');
};

/** The placeholder whose value is a dot segment (for the message). */
const placeholderOfDotSegment = (t: UrlTemplate, lookup: (name: string) => unknown): string | undefined => {
  for (const p of t.path) if (p.kind === 'placeholder' && /^\.{1,2}$/.test(scalarText(lookup(p.name), ',') ?? '')) return p.name;
  return undefined;
};
