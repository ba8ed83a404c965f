/**
 * `web_fetch`: fetches a URL whose host is on the run's allowlist (checked again on every
 * redirect, by `safeFetch`), with a size cap (5 MiB) and a timeout (30 s). Text responses (text/*,
 * JSON, XML, JavaScript, forms) come back as text decoded with their charset; anything else as
 * base64 with `encoding: "base64"`, so no byte is lost or mangled.
 */
import { ToolCodes } from '../../library/codes.js';
import { NetCodes } from '../../net/codes.js';
import { BuiltinCodes } from './codes.js';
import type { InvocationContext } from '../../library/tool.js';
import { ToolFailure } from '../../library/result.js';
import { parseAllowedHosts } from '../../net/host-allowlist.js';
import { safeFetch } from '../../net/safe-fetch.js';
import { argsRecord, numberArg, requireString, stringArg, type BuiltinFactory } from './builtin.js';
import { isLeft } from '../../core/either.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface WebFetchResult {
  readonly status: number;
  /** Response headers, names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** How `body` is encoded: `utf-8` text or `base64` bytes. */
  readonly encoding: 'utf-8' | 'base64';
  /** The URL that answered, after redirects. */
  readonly url: string;
}

/** Headers a call may not set: they would change where or how the request is sent. */
const FORBIDDEN_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'upgrade',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'expect',
]);

// -------------------------------------------------------------------------------------------------
// tool
// -------------------------------------------------------------------------------------------------

export const webFetch: BuiltinFactory = (options) => {
  const allowlist = parseAllowedHosts(options.allowedHosts);
  const maxTimeout = options.limits.fetchTimeoutSeconds;
  return {
    name: 'web_fetch',
    annotations: { permissions: ['net:read'], safetyLevel: 'medium', approval: 'auto' },
    limits: { timeoutMs: (maxTimeout + 5) * 1000 },
    implementation: async (args: unknown, ctx: InvocationContext): Promise<WebFetchResult> => {
      if (isLeft(allowlist)) {
        throw new ToolFailure(BuiltinCodes.NOT_CONFIGURED, `web_fetch's host allowlist is invalid: ${allowlist.left.map((d) => d.message).join('; ')}`);
      }
      const a = argsRecord(args);
      const url = requireString(a, 'url');
      const method = (stringArg(a, 'method', 'GET') as string).toUpperCase();
      if (method !== 'GET' && method !== 'POST')
        throw new ToolFailure(ToolCodes.INVALID_ARGUMENTS, `argument "method" must be GET or POST, got ${JSON.stringify(method)}`);
      const body = stringArg(a, 'body');
      if (body !== undefined && method === 'GET')
        throw new ToolFailure(ToolCodes.INVALID_ARGUMENTS, 'a GET request has no body: use method "POST" to send one');
      const headers = headersArg(a['headers']);
      const seconds = numberArg(a, 'timeout');
      const timeoutMs = Math.round(Math.min(seconds !== undefined && seconds > 0 ? seconds : maxTimeout, maxTimeout) * 1000);
      const r = await safeFetch(url, {
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
        allowedHosts: allowlist.right,
        maxBytes: options.limits.fetchMaxBytes,
        timeoutMs,
        maxRedirects: options.limits.fetchMaxRedirects,
        signal: ctx.signal,
      });
      if (!r.ok) {
        const e = r.error;
        const hint =
          e.reason === NetCodes.HOST_NOT_ALLOWED || e.reason === NetCodes.PRIVATE_ADDRESS ? ' (the hosts this run may reach are set by its operator)' : '';
        throw new ToolFailure(e.reason, `${e.message}${hint}`, { retryable: e.retryable, ...(e.details !== undefined ? { details: e.details } : {}) });
      }
      const res = r.value;
      const text = bodyText(res.headers['content-type'], res.body, res.text);
      return {
        status: res.status,
        headers: res.headers,
        body: text ?? Buffer.from(res.body).toString('base64'),
        encoding: text !== undefined ? 'utf-8' : 'base64',
        url: res.url,
      };
    },
  };
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const headersArg = (v: unknown): Record<string, string> => {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v))
    throw new ToolFailure(ToolCodes.INVALID_ARGUMENTS, 'argument "headers" must be an object of header names to values');
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x !== 'string') throw new ToolFailure(ToolCodes.INVALID_ARGUMENTS, `header ${JSON.stringify(k)} must be a string`);
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(k)) throw new ToolFailure(ToolCodes.INVALID_ARGUMENTS, `${JSON.stringify(k)} is not a valid header name`);
    if (/[\r\n\0]/.test(x)) throw new ToolFailure(ToolCodes.INVALID_ARGUMENTS, `header ${JSON.stringify(k)} contains a line break or NUL`);
    if (FORBIDDEN_HEADERS.has(k.toLowerCase())) throw new ToolFailure(ToolCodes.INVALID_ARGUMENTS, `header ${JSON.stringify(k)} cannot be set by a call`);
    out[k] = x;
  }
  return out;
};

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The body as text when it is text: a textual content type (or none) and, for UTF-8 (the default
 * charset), bytes that really are UTF-8; other charsets as `safeFetch` decoded them. Undefined
 * otherwise (the body is then returned as base64).
 */
const bodyText = (contentType: string | undefined, body: Uint8Array, decoded: string): string | undefined => {
  if (contentType !== undefined && contentType.trim() !== '' && !isTextual(contentType)) return undefined;
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (charset === undefined || charset === 'utf-8' || charset === 'utf8' || charset === 'us-ascii') {
    try {
      return strictUtf8.decode(body);
    } catch {
      return undefined;
    }
  }
  return decoded;
};

/** Whether a content type is text a model can read. */
export const isTextual = (contentType: string): boolean => {
  const t = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return (
    t.startsWith('text/') ||
    /^application\/([\w.-]+\+)?(json|xml)$/.test(t) ||
    /^application\/(javascript|ecmascript|x-javascript|x-www-form-urlencoded|x-ndjson|ld\+json|graphql|yaml|x-yaml|toml|sql|x-sh)$/.test(t) ||
    t === 'image/svg+xml'
  );
};
