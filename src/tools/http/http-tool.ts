/**
 * Declarative HTTP tools: a tool specification plus an HTTP configuration make a `Tool`
 * whose calls render a request from the arguments and secrets, send it through `safeFetch`
 * (allowlist on every redirect, size cap, timeout), retry what can be retried, and turn the
 * response into the tool's result.
 *
 * A call:
 * 1. renders the URL, headers and body, each value encoded for where it lands (see
 *    `url-template.ts`, `body-template.ts`; header values may not hold line breaks);
 * 2. sends it; transport failures that may pass (timeouts, connection errors) and statuses in
 *    `retry.retryOn` are retried for the methods in `retry.methods` (idempotent ones by default),
 *    after `Retry-After` when the server sends one (up to `retry.maxRetryAfterMs`), else after an
 *    exponential backoff with full jitter;
 * 3. checks the status against `successCodes` (default: any 2xx), reads the body as JSON or text,
 *    applies `extractExpr`;
 * 4. with `errorMode: "empty"`, a non-success status, an unreadable body or an extraction that
 *    matches nothing gives the empty value of the output type (`{}`, `[]`, `""`, else `null`);
 *    transport failures, refused hosts and cancellation always fail: the model must know that the
 *    call did not happen.
 *
 * Secrets: a placeholder that names no parameter names a secret, read from the provider at each
 * call. Every string the tool returns or reports is redacted (see `redact.ts`), and headers that
 * carry a secret are dropped when a redirect leaves the origin.
 */
import { ToolCodes } from '../../library/codes.js';
import { HttpCodes } from './codes.js';
import { left, right, type Either, isLeft, isRight } from '../../core/either.js';
import type { HttpDispatcher } from '../../net/dispatcher.js';
import { error, type Diagnostic } from '../../core/diagnostic.js';
import { isToolFailure, ToolFailure } from '../../library/result.js';
import { createTool, type InvocationContext, type Tool } from '../../library/tool.js';
import type { JsonSchema } from '../../core/json-schema.js';
import type { ToolSpecification } from '../../specification/tool-spec.js';
import { CONTENT_TYPES, renderBody } from './body-template.js';
import { extract } from './extract.js';
import { compileHttpConfig, type CompiledHttpConfig, type HttpToolConfigInput } from './http-config.js';
import { parameterNames } from '../parameters.js';
import { redactor, redactThenCut, type Redactor, type SecretProvider } from '../../core/redact.js';
import { backoffDelay, mayRetry, retriesStatus, retryAfterMs, sleep } from '../../net/retry.js';
import { safeFetch, type FetchError, type FetchResponse } from '../../net/safe-fetch.js';
import { placeholderNames, solePlaceholder } from '../template.js';
import { renderUrl, scalarText, type RenderProblem } from './url-template.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** The hosts (`api.example.com`, or `host:port`) a secret is for; `undefined` when it is bound to none. */
export type SecretHosts = (name: string) => ReadonlyArray<string> | undefined;

/** Whether a URL's host is one of `hosts` (its name, or its name and port; any case). */
export const secretGoesTo = (hosts: ReadonlyArray<string>, url: string): boolean => {
  const u = new URL(url);
  return hosts.some((h) => h.toLowerCase() === u.hostname.toLowerCase() || h.toLowerCase() === u.host.toLowerCase());
};

export interface HttpToolOptions {
  /** Where `${NAME}` placeholders that name no parameter get their value; read at each call. */
  readonly secrets?: SecretProvider;
  /** The hosts each secret may be sent to (`--secret NAME@host,host`); `undefined`: not bound. */
  readonly secretHosts?: SecretHosts;
  /** An undici dispatcher to send through (a proxy, a mock); see `safe-fetch.ts`. */
  readonly dispatcher?: HttpDispatcher;
  /** Source of jitter in [0, 1) for retry delays (default `Math.random`). */
  readonly random?: () => number;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/**
 * A tool that implements `spec` with an HTTP request. The configuration is checked (all problems
 * at once): its own fields, and every placeholder must name a parameter of `spec` or a secret the
 * provider knows, not both.
 */
export const httpTool = (spec: ToolSpecification, config: HttpToolConfigInput, options: HttpToolOptions = {}): Either<ReadonlyArray<Diagnostic>, Tool> => {
  const compiled = compileHttpConfig(config, `tool "${spec.name}" http`);
  const params = parameterNames(spec.schema);
  const secrets = options.secrets ?? (() => undefined);
  // placeholders are checked even when the configuration has other problems: all are reported at once
  const used = isRight(compiled)
    ? [...compiled.right.url.names, ...compiled.right.headers.flatMap((h) => placeholderNames(h.template)), ...(compiled.right.body?.names ?? [])]
    : rawPlaceholderNames(config);
  const problems: Diagnostic[] = isLeft(compiled) ? [...compiled.left] : [];
  const secretNames: string[] = [];
  for (const name of new Set(used)) {
    const isParam = params.includes(name);
    const isSecret = secrets(name) !== undefined;
    if (isParam && isSecret)
      problems.push(
        error(HttpCodes.AMBIGUOUS_PLACEHOLDER, `tool "${spec.name}": placeholder \${${name}} names both a parameter and a secret`, {
          hint: 'rename the parameter or the secret: a model must never be able to choose a secret value',
        }),
      );
    else if (isSecret) secretNames.push(name);
    else if (!isParam)
      problems.push(
        error(HttpCodes.UNKNOWN_PLACEHOLDER, `tool "${spec.name}": placeholder \${${name}} names neither a parameter nor a known secret`, {
          hint: params.length > 0 ? `the parameters are: ${params.join(', ')}` : 'the tool has no parameters; pass the secret provider that knows it',
        }),
      );
  }
  if (problems.length > 0 || isLeft(compiled)) return left(problems);
  const c = compiled.right;

  const sensitive = c.headers.filter((h) => placeholderNames(h.template).some((n) => secretNames.includes(n))).map((h) => h.name);
  const run = runner(spec, c, params, secretNames, sensitive, secrets, options);
  const { method, timeoutMs, retry } = c.config;
  const safe = method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
  // a backstop for the library: longer than every attempt, wait and redirect this tool allows itself
  const backstop = retry.maxAttempts * timeoutMs + (retry.maxAttempts - 1) * Math.max(retry.maxDelayMs, retry.maxRetryAfterMs) + 1000;
  return right(
    createTool(spec.name, spec.description, spec.schema, run, {
      outputSchema: spec.outputSchema,
      limits: { timeoutMs: backstop },
      annotations: { permissions: [safe ? 'net:read' : 'net:write'], safetyLevel: safe ? 'low' : 'medium' },
    }),
  );
};

// -------------------------------------------------------------------------------------------------
// calls
// -------------------------------------------------------------------------------------------------

const runner = (
  spec: ToolSpecification,
  c: CompiledHttpConfig,
  params: ReadonlyArray<string>,
  secretNames: ReadonlyArray<string>,
  sensitiveHeaders: ReadonlyArray<string>,
  secrets: SecretProvider,
  options: HttpToolOptions,
) => {
  // secrets rarely change: keep the redactor of the last values seen
  let lastKey: string | undefined;
  let lastRedactor: Redactor | undefined;
  return async (args: Record<string, unknown>, ctx: InvocationContext): Promise<unknown> => {
    const values = new Map<string, string>();
    for (const name of secretNames) {
      const v = secrets(name);
      if (v === undefined) throw new ToolFailure(HttpCodes.SECRET_MISSING, `the secret "${name}" that tool "${spec.name}" needs is not available`);
      values.set(name, v);
    }
    const key = JSON.stringify([...values.values()]);
    if (key !== lastKey || lastRedactor === undefined) {
      lastKey = key;
      lastRedactor = redactor([...values.values()]);
    }
    const red = lastRedactor;
    try {
      return red.value(await call(spec, c, params, values, sensitiveHeaders, args ?? {}, ctx, options, red));
    } catch (e) {
      throw redactFailure(e, red);
    }
  };
};

const call = async (
  spec: ToolSpecification,
  c: CompiledHttpConfig,
  params: ReadonlyArray<string>,
  secretValues: ReadonlyMap<string, string>,
  sensitiveHeaders: ReadonlyArray<string>,
  args: Record<string, unknown>,
  ctx: InvocationContext,
  options: HttpToolOptions,
  red: Redactor,
): Promise<unknown> => {
  const lookup = (name: string): unknown => (params.includes(name) ? args[name] : secretValues.get(name));
  const placeFailure = (where: string, p: RenderProblem): ToolFailure =>
    params.includes(p.name)
      ? new ToolFailure(ToolCodes.INVALID_ARGUMENTS, `argument "${p.name}" ${p.message} (${where})`, { details: { argument: p.name } })
      : new ToolFailure(HttpCodes.SECRET_INVALID, `the secret "${p.name}" cannot be used in the ${where}: it ${p.message}`);

  const url = renderUrl(c.url, lookup);
  if (isLeft(url)) throw placeFailure('URL', url.left);
  // a secret bound to hosts goes to those hosts only (a redirect elsewhere drops it: safeFetch)
  for (const name of secretValues.keys()) {
    const hosts = options.secretHosts?.(name);
    if (hosts === undefined || secretGoesTo(hosts, url.right)) continue;
    const message = `the secret "${name}" that tool "${spec.name}" uses is not for ${new URL(url.right).host} (it is for ${hosts.join(', ')})`;
    throw new ToolFailure(HttpCodes.SECRET_NOT_FOR_HOST, message, { details: { secret: name, hosts: [...hosts] } });
  }

  const headers: Record<string, string> = {};
  for (const h of c.headers) {
    const sole = solePlaceholder(h.template);
    if (sole !== undefined && (lookup(sole) === undefined || lookup(sole) === null)) continue; // optional header left out
    const value = h.template.map((p) => (p.kind === 'text' ? p.text : (scalarText(lookup(p.name), ',') ?? ''))).join('');
    if (/[\r\n\0]/.test(value)) {
      const culprit = h.template.find((p) => p.kind === 'placeholder' && /[\r\n\0]/.test(scalarText(lookup(p.name), ',') ?? ''));
      throw placeFailure(`header ${h.name}`, {
        name: culprit?.kind === 'placeholder' ? culprit.name : h.name,
        message: 'must not contain line breaks or NUL characters',
      });
    }
    headers[h.name] = value;
  }

  let body: string | undefined;
  if (c.body !== undefined) {
    const rendered = renderBody(c.body, lookup);
    if (isLeft(rendered)) throw placeFailure('body', rendered.left);
    body = rendered.right;
    if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['content-type'] = CONTENT_TYPES[c.body.encoding];
  }

  const { config } = c;
  const policy = config.retry;
  const random = options.random ?? Math.random;
  for (let attempt = 1; ; attempt++) {
    const res = await safeFetch(url.right, {
      method: config.method,
      headers,
      ...(body !== undefined ? { body } : {}),
      allowedHosts: c.allowlist,
      allowPrivateAddresses: config.allowPrivateAddresses,
      maxBytes: config.maxResponseBytes,
      timeoutMs: config.timeoutMs,
      signal: ctx.signal,
      maxRedirects: config.maxRedirects,
      sensitiveHeaders,
      sensitiveBody: c.body !== undefined && c.body.names.some((n) => secretValues.has(n)),
      redact: red.text,
      ...(options.dispatcher !== undefined ? { dispatcher: options.dispatcher } : {}),
    });
    const canRetry = mayRetry(policy, attempt, config.method) && !ctx.signal.aborted;
    if (!res.ok) {
      if (canRetry && res.error.retryable) {
        await pause(backoffDelay(policy, attempt, random), ctx.signal);
        continue;
      }
      throw fetchFailure(res.error, attempt);
    }
    const r = res.value;
    const success = config.successCodes !== undefined ? config.successCodes.includes(r.status) : r.status >= 200 && r.status <= 299;
    if (!success && retriesStatus(policy, r.status) && canRetry) {
      const after = retryAfterMs(r.headers);
      if (after === undefined || after <= policy.maxRetryAfterMs) {
        await pause(after ?? backoffDelay(policy, attempt, random), ctx.signal);
        continue;
      }
    }
    return respond(spec, c, r, success, attempt, red);
  }
};

/** The result of a response: status checked, body decoded, extraction applied. */
const respond = (spec: ToolSpecification, c: CompiledHttpConfig, r: FetchResponse, success: boolean, attempts: number, red: Redactor): unknown => {
  const { config } = c;
  const empty = config.errorMode === 'empty';
  if (!success) {
    if (empty) return emptyValue(spec.outputSchema);
    // redacted before it is cut: a cut never leaves part of a secret to the redactor
    const excerpt = redactThenCut(r.text, 300, red.text);
    const retryAfter = retryAfterMs(r.headers);
    throw new ToolFailure(
      HttpCodes.ERROR,
      `${config.method} ${new URL(r.url).host} answered ${r.status}${r.statusText ? ` ${r.statusText}` : ''}${excerpt.trim() !== '' ? `: ${excerpt}` : ''}`,
      {
        details: { status: r.status, body: excerpt, attempts, ...(retryAfter !== undefined ? { retryAfterMs: retryAfter } : {}) },
        retryable: retriesStatus(config.retry, r.status),
      },
    );
  }
  let json: unknown;
  const isJson = config.responseEncoding === 'json';
  if (isJson) {
    if (r.text.trim() === '') json = null;
    else {
      try {
        json = JSON.parse(r.text);
      } catch (e) {
        if (empty) return emptyValue(spec.outputSchema);
        throw new ToolFailure(
          HttpCodes.INVALID_RESPONSE,
          `the response of ${new URL(r.url).host} is not JSON (${jsonProblem(red.text(r.text), e)}); set responseEncoding to "text" to read it as text`,
          {
            details: { status: r.status, contentType: r.headers['content-type'] },
          },
        );
      }
    }
  }
  if (c.extractor === undefined) return isJson ? json : r.text;
  const got = extract(c.extractor, { json, text: r.text }, isJson);
  if (got.found) return got.value;
  if (empty) return emptyValue(spec.outputSchema);
  throw new ToolFailure(HttpCodes.EXTRACT_NO_MATCH, `extractExpr: ${got.reason}`, { details: { extractExpr: c.extractor.expr, status: r.status } });
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** Placeholder names in the string fields of a configuration that did not compile (best effort). */
const rawPlaceholderNames = (config: unknown): string[] => {
  if (typeof config !== 'object' || config === null) return [];
  const c = config as Record<string, unknown>;
  const texts = [c['urlTemplate'], c['bodyTemplate'], ...(typeof c['headers'] === 'object' && c['headers'] !== null ? Object.values(c['headers']) : [])];
  return texts.flatMap((t) => (typeof t === 'string' ? [...t.matchAll(/(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]!) : []));
};

const pause = async (ms: number, signal: AbortSignal): Promise<void> => {
  if (!(await sleep(ms, signal))) throw new ToolFailure(ToolCodes.CANCELLED, 'the call was cancelled while waiting to retry');
};

const fetchFailure = (e: FetchError, attempts: number): ToolFailure =>
  new ToolFailure(e.reason, attempts > 1 ? `${e.message} (after ${attempts} attempts)` : e.message, {
    details: { ...(e.details ?? {}), attempts },
    retryable: e.retryable,
  });

/**
 * Why text is not JSON, in the engine's words, quoting the redacted text: the engine's message
 * quotes a cut excerpt of what it parsed, so it parses the redacted text again (never the raw one).
 */
const jsonProblem = (redacted: string, first: unknown): string => {
  try {
    JSON.parse(redacted);
  } catch (e) {
    return (e as Error).message;
  }
  return first instanceof SyntaxError ? 'a syntax error' : 'unreadable';
};

const redactFailure = (e: unknown, red: Redactor): ToolFailure => {
  if (isToolFailure(e)) {
    const details = e.details === undefined ? undefined : red.value(e.details);
    return new ToolFailure(e.reason, red.text(e.message), { ...(details !== undefined ? { details } : {}), retryable: e.retryable });
  }
  return new ToolFailure(ToolCodes.EXECUTION_ERROR, red.text(e instanceof Error ? e.message : String(e)));
};

/** The empty value of a type: `{}` for objects, `[]` for arrays, `""` for strings, else `null`. */
export const emptyValue = (schema: JsonSchema | undefined): unknown => {
  if (typeof schema !== 'object' || schema === null) return null;
  const type = schema['type'];
  const types = Array.isArray(type) ? type : [type];
  if (types.includes('null')) return null;
  if (types.includes('object')) return {};
  if (types.includes('array')) return [];
  if (types.includes('string')) return '';
  return null;
};
