/**
 * The configuration of a declarative HTTP tool (its `http` implementation block), its JSON form
 * decoded with io-ts, and every check that needs only the configuration itself. Checks that need
 * the tool's specification (placeholders naming parameters) or the secrets are in `http-tool.ts`.
 *
 * ```json
 * { "method": "GET",
 *   "urlTemplate": "https://api.weatherapi.com/v1/current.json?q=${city}&key=${WEATHER_API_KEY}",
 *   "headers": { "User-Agent": "MyApp/${version}" },
 *   "successCodes": [200], "timeoutMs": 10000, "responseEncoding": "json",
 *   "extractExpr": "$.current.condition.text", "errorMode": "fail" }
 * ```
 */
import { isIP } from 'node:net';
import { HttpCodes } from './codes.js';
import { left, right, type Either, isLeft, isRight } from '../../core/either.js';
import * as t from 'io-ts';
import { error, type Diagnostic } from '../../core/diagnostic.js';
import { inferBodyEncoding, parseBodyTemplate, type BodyEncoding, type BodyTemplate } from './body-template.js';
import { decodeErrors, unknownKeys } from '../config-decode.js';
import { parseExtractExpr, type Extractor } from './extract.js';
import { checkHost, effectivePort, isPrivateAddress, normalizeHostname, parseAllowedHosts, type HostAllowlist } from '../../net/host-allowlist.js';
import { DEFAULT_RETRY, type RetryPolicy } from '../../net/retry.js';
import { parseTemplate, type Template } from '../template.js';
import { parseUrlTemplate, type UrlTemplate } from './url-template.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** An HTTP tool's configuration with every default filled in. */
export interface HttpToolConfig {
  readonly method: HttpMethod;
  /** Starts with http:// or https://; `${name}` placeholders take arguments or secrets. */
  readonly urlTemplate: string;
  /** Header values may hold placeholders; names may not. */
  readonly headers: Readonly<Record<string, string>>;
  /** The request body; absent or empty: no body. */
  readonly bodyTemplate?: string;
  /** How placeholders in the body are encoded; inferred from `content-type` or the template when absent. */
  readonly bodyEncoding?: BodyEncoding;
  /** Statuses that count as success; absent: any 2xx. */
  readonly successCodes?: ReadonlyArray<number>;
  /** Per attempt, in milliseconds (default 10000). */
  readonly timeoutMs: number;
  /** How the response is read (default `json`). */
  readonly responseEncoding: 'json' | 'text';
  /** JSONPath (`$...`) or regular expression (`/.../flags`) selecting the result. */
  readonly extractExpr?: string;
  /** `fail` (default): a non-success status, an unreadable body or no match is an error; `empty`: an empty result. */
  readonly errorMode: 'fail' | 'empty';
  readonly retry: RetryPolicy;
  /** Hosts the request and its redirects may reach; default: the host of `urlTemplate`. */
  readonly allowedHosts: ReadonlyArray<string>;
  /** Allow host names that resolve to private addresses (default false). */
  readonly allowPrivateAddresses: boolean;
  /** Largest response accepted, in bytes (default 5 MB). */
  readonly maxResponseBytes: number;
  /** Default 5. */
  readonly maxRedirects: number;
}

/** The JSON form: only `urlTemplate` is required. */
export type HttpToolConfigInput = Partial<Omit<HttpToolConfig, 'method' | 'retry'>> & {
  readonly urlTemplate: string;
  readonly method?: string;
  readonly retry?: Partial<RetryPolicy>;
};

/** A configuration with its templates parsed, ready to render requests. */
export interface CompiledHttpConfig {
  readonly config: HttpToolConfig;
  readonly url: UrlTemplate;
  readonly headers: ReadonlyArray<{ readonly name: string; readonly template: Template }>;
  readonly body?: BodyTemplate;
  readonly extractor?: Extractor;
  readonly allowlist: HostAllowlist;
}

export const HTTP_DEFAULTS = {
  timeoutMs: 10_000,
  maxResponseBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
} as const;

// -------------------------------------------------------------------------------------------------
// codec
// -------------------------------------------------------------------------------------------------

const RetryCodec = t.partial({
  maxAttempts: t.number,
  baseDelayMs: t.number,
  maxDelayMs: t.number,
  retryOn: t.array(t.number),
  methods: t.array(t.string),
  maxRetryAfterMs: t.number,
});

const HttpConfigCodec = t.intersection([
  t.type({ urlTemplate: t.string }),
  t.partial({
    method: t.string,
    headers: t.record(t.string, t.string),
    bodyTemplate: t.string,
    bodyEncoding: t.keyof({ json: null, form: null, text: null }),
    successCodes: t.array(t.number),
    timeoutMs: t.number,
    responseEncoding: t.keyof({ json: null, text: null }),
    extractExpr: t.string,
    errorMode: t.keyof({ fail: null, empty: null }),
    retry: RetryCodec,
    allowedHosts: t.array(t.string),
    allowPrivateAddresses: t.boolean,
    maxResponseBytes: t.number,
    maxRedirects: t.number,
  }),
]);

const CONFIG_KEYS = [
  'method',
  'urlTemplate',
  'headers',
  'bodyTemplate',
  'bodyEncoding',
  'successCodes',
  'timeoutMs',
  'responseEncoding',
  'extractExpr',
  'errorMode',
  'retry',
  'allowedHosts',
  'allowPrivateAddresses',
  'maxResponseBytes',
  'maxRedirects',
];
const RETRY_KEYS = ['maxAttempts', 'baseDelayMs', 'maxDelayMs', 'retryOn', 'methods', 'maxRetryAfterMs'];
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

// -------------------------------------------------------------------------------------------------
// decoding
// -------------------------------------------------------------------------------------------------

/**
 * Decodes and checks an HTTP tool configuration (JSON or a gram record), all problems at once.
 * `where` prefixes the field paths in messages (`http.urlTemplate: ...`).
 */
export const decodeHttpToolConfig = (json: unknown, where = 'http'): Either<ReadonlyArray<Diagnostic>, HttpToolConfig> => {
  const compiled = compileHttpConfig(json, where);
  return isLeft(compiled) ? compiled : right(compiled.right.config);
};

/** Decodes, checks and parses the templates of a configuration. */
export const compileHttpConfig = (json: unknown, where = 'http'): Either<ReadonlyArray<Diagnostic>, CompiledHttpConfig> => {
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return left([
      error(
        HttpCodes.CONFIG_TYPE,
        `${where}: expected an object with at least "urlTemplate", got ${json === null ? 'null' : Array.isArray(json) ? 'an array' : typeof json}`,
      ),
    ]);
  const decoded = HttpConfigCodec.decode(json);
  const problems: Diagnostic[] = [
    ...unknownKeys(json, CONFIG_KEYS, where, HttpCodes.CONFIG_UNKNOWN_KEY),
    ...unknownKeys((json as { retry?: unknown }).retry, RETRY_KEYS, `${where}.retry`, HttpCodes.CONFIG_UNKNOWN_KEY),
  ];
  if (isLeft(decoded)) return left([...problems, ...decodeErrors(decoded.left, where, HttpCodes.CONFIG_TYPE)]);
  const raw = decoded.right;

  const value = (field: string, v: number | undefined, fallback: number, min: number, integer = true): number => {
    if (v === undefined) return fallback;
    if (!Number.isFinite(v) || v < min || (integer && !Number.isInteger(v)))
      problems.push(error(HttpCodes.CONFIG_VALUE, `${where}.${field} must be ${integer ? 'an integer' : 'a number'} >= ${min}, got ${v}`));
    return v;
  };

  const method = (raw.method ?? 'GET').toUpperCase();
  if (!(HTTP_METHODS as ReadonlyArray<string>).includes(method))
    problems.push(error(HttpCodes.CONFIG_METHOD, `${where}.method "${raw.method}" is not one of ${HTTP_METHODS.join(', ')}`));

  const url = parseUrlTemplate(raw.urlTemplate, `${where}.urlTemplate`);
  if (isLeft(url)) problems.push(...url.left);

  const headers: { name: string; template: Template }[] = [];
  for (const [name, v] of Object.entries(raw.headers ?? {})) {
    if (!TOKEN.test(name)) {
      problems.push(error(HttpCodes.HEADER_NAME, `${where}.headers: "${name}" is not a valid header name (placeholders are allowed in values only)`));
      continue;
    }
    if (/[\r\n\0]/.test(v)) problems.push(error(HttpCodes.HEADER_VALUE, `${where}.headers.${name} contains a line break or NUL character`));
    const tpl = parseTemplate(v, `${where}.headers.${name}`);
    if (isLeft(tpl)) problems.push(...tpl.left);
    else headers.push({ name, template: tpl.right });
  }
  const contentType = Object.entries(raw.headers ?? {}).find(([k]) => k.toLowerCase() === 'content-type')?.[1];

  let body: BodyTemplate | undefined;
  if (raw.bodyTemplate !== undefined && raw.bodyTemplate !== '') {
    if (method === 'GET' || method === 'HEAD')
      problems.push(
        error(HttpCodes.BODY_NOT_ALLOWED, `${where}.bodyTemplate: a ${method} request has no body`, {
          hint: 'use POST, PUT or PATCH, or put the values in urlTemplate',
        }),
      );
    const parsed = parseBodyTemplate(raw.bodyTemplate, inferBodyEncoding(raw.bodyTemplate, contentType, raw.bodyEncoding), `${where}.bodyTemplate`);
    if (isLeft(parsed)) problems.push(...parsed.left);
    else body = parsed.right;
  }

  for (const [i, c] of (raw.successCodes ?? []).entries())
    if (!Number.isInteger(c) || c < 100 || c > 599)
      problems.push(error(HttpCodes.CONFIG_VALUE, `${where}.successCodes[${i}] must be an HTTP status (100-599), got ${c}`));

  const responseEncoding = raw.responseEncoding ?? 'json';
  let extractor: Extractor | undefined;
  if (raw.extractExpr !== undefined) {
    const ex = parseExtractExpr(raw.extractExpr, `${where}.extractExpr`);
    if (isLeft(ex)) problems.push(...ex.left);
    else {
      extractor = ex.right;
      if (ex.right.kind === 'jsonpath' && responseEncoding !== 'json')
        problems.push(
          error(HttpCodes.EXTRACT_NEEDS_JSON, `${where}.extractExpr is a JSONPath but responseEncoding is "${responseEncoding}"`, {
            hint: 'set responseEncoding to "json", or extract with a regular expression (/.../)',
          }),
        );
    }
  }

  const r = raw.retry ?? {};
  const retry: RetryPolicy = {
    maxAttempts: value('retry.maxAttempts', r.maxAttempts, DEFAULT_RETRY.maxAttempts, 1),
    baseDelayMs: value('retry.baseDelayMs', r.baseDelayMs, DEFAULT_RETRY.baseDelayMs, 0),
    maxDelayMs: value('retry.maxDelayMs', r.maxDelayMs, DEFAULT_RETRY.maxDelayMs, 0),
    retryOn: r.retryOn ?? DEFAULT_RETRY.retryOn,
    methods: (r.methods ?? DEFAULT_RETRY.methods).map((m) => m.toUpperCase()),
    maxRetryAfterMs: value('retry.maxRetryAfterMs', r.maxRetryAfterMs, DEFAULT_RETRY.maxRetryAfterMs, 0),
  };
  for (const m of retry.methods)
    if (!(HTTP_METHODS as ReadonlyArray<string>).includes(m))
      problems.push(error(HttpCodes.CONFIG_METHOD, `${where}.retry.methods: "${m}" is not one of ${HTTP_METHODS.join(', ')}`));

  const timeoutMs = value('timeoutMs', raw.timeoutMs, HTTP_DEFAULTS.timeoutMs, 1);
  const maxResponseBytes = value('maxResponseBytes', raw.maxResponseBytes, HTTP_DEFAULTS.maxResponseBytes, 1);
  const maxRedirects = value('maxRedirects', raw.maxRedirects, HTTP_DEFAULTS.maxRedirects, 0);
  const allowPrivateAddresses = raw.allowPrivateAddresses ?? false;

  // allowedHosts: given, or the template's own host when it is literal
  let allowedHosts: ReadonlyArray<string> = raw.allowedHosts ?? [];
  let allowlist: HostAllowlist = { patterns: [], entries: [] };
  if (isRight(url)) {
    const literal = url.right.literalAuthority;
    if (raw.allowedHosts === undefined) {
      if (literal === undefined)
        problems.push(
          error(HttpCodes.ALLOWED_HOSTS_REQUIRED, `${where}.urlTemplate has a placeholder in its host, so allowedHosts must say which hosts it may reach`, {
            hint: 'e.g. "allowedHosts": ["*.api.example.com"]',
          }),
        );
      else allowedHosts = [derivedEntry(url.right.scheme, literal)];
    }
    const parsed = parseAllowedHosts(allowedHosts);
    if (isLeft(parsed)) problems.push(...parsed.left.map((d) => ({ ...d, message: `${where}.${d.message}` })));
    else {
      allowlist = parsed.right;
      if (literal !== undefined && raw.allowedHosts !== undefined) {
        const decision = checkHost(new URL(`${url.right.scheme}${literal}/`), allowlist, allowPrivateAddresses);
        if (!decision.allowed)
          problems.push(
            error(HttpCodes.HOST_NOT_ALLOWED, `${where}.urlTemplate: ${decision.message}`, { hint: 'add the host of urlTemplate to allowedHosts' }),
          );
      }
    }
  }

  if (problems.length > 0 || isLeft(url)) return left(problems);
  const config: HttpToolConfig = {
    method: method as HttpMethod,
    urlTemplate: raw.urlTemplate,
    headers: { ...(raw.headers ?? {}) },
    ...(body !== undefined ? { bodyTemplate: raw.bodyTemplate!, bodyEncoding: body.encoding } : {}),
    ...(raw.successCodes !== undefined ? { successCodes: [...raw.successCodes] } : {}),
    timeoutMs,
    responseEncoding,
    ...(raw.extractExpr !== undefined ? { extractExpr: raw.extractExpr } : {}),
    errorMode: raw.errorMode ?? 'fail',
    retry,
    allowedHosts: [...allowedHosts],
    allowPrivateAddresses,
    maxResponseBytes,
    maxRedirects,
  };
  return right({
    config,
    url: url.right,
    headers,
    ...(body !== undefined ? { body } : {}),
    ...(extractor !== undefined ? { extractor } : {}),
    allowlist,
  });
};

/**
 * The allowlist entry a literal template host gives: the host itself, and for a private IP address
 * its port too (the scheme's default when none is written), so that a redirect cannot reach
 * another service on the same private host.
 */
const derivedEntry = (scheme: string, literal: string): string => {
  try {
    const u = new URL(`${scheme}${literal}/`);
    const host = normalizeHostname(u.hostname);
    if (isIP(host) !== 0 && isPrivateAddress(host) && u.port === '') return `${u.hostname}:${effectivePort(u)}`;
  } catch {
    // not a URL: the allowlist parser reports it
  }
  return literal;
};
