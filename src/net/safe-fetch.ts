/**
 * An outbound HTTP request that cannot be steered where it should not go, nor made to read more
 * than it should: http/https only, an allowlist of hosts checked on the first request and on every
 * redirect (redirects are followed here, one hop at a time), private addresses refused unless
 * explicitly allowed (see `host-allowlist.ts`), a response size cap enforced while streaming, one
 * deadline for the whole exchange, and cancellation. Over undici's `request`.
 *
 * Never rejects: every failure is a `Left` with a stable code.
 *
 * The check of the addresses a host name resolves to is built into gramkit's connector (the
 * default dispatcher, or one made by `safeDispatcher`): a public name that resolves to a private
 * address (DNS rebinding, an internal name) is refused at connect time, not before, so the
 * address checked is the address used. A `dispatcher` you pass instead (a proxy, a mock) is
 * trusted with connecting; only the URL checks (scheme, allowlist, IP literals) apply to it.
 */
import { NetCodes } from './codes.js';
import { canonicalOf } from '../core/codes.js';
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { left, right, type Either, isLeft } from '../core/either.js';
import { type CodedError, type Err, err, ok, type Result } from '../core/result.js';
import type { Agent, Dispatcher } from 'undici';
import { loadUndici } from './undici.js';
import { type HttpDispatcher, undiciDispatcher } from './dispatcher.js';
import { onAbort } from '../core/abort.js';
import { redactThenCut } from '../core/redact.js';
import { checkHost, isPrivateAddress, parseAllowedHosts, type HostAllowlist } from './host-allowlist.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface SafeFetchOptions {
  /** Default `GET`. */
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
  /** Hosts the request (and every redirect) may reach; see `host-allowlist.ts` for the patterns. */
  readonly allowedHosts: ReadonlyArray<string> | HostAllowlist;
  /** Allow private, loopback and link-local addresses for every allowed host. Default false. */
  readonly allowPrivateAddresses?: boolean;
  /** Largest response body accepted, in bytes (`RESULT_TOO_LARGE` above it). */
  readonly maxBytes: number;
  /** Deadline for the whole exchange (redirects and body included), in milliseconds. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Redirects followed at most; default 5. 0 returns the 3xx response itself. */
  readonly maxRedirects?: number;
  /** Follow a redirect from https to http. Default false (`INSECURE_REDIRECT`). */
  readonly allowInsecureRedirects?: boolean;
  /**
   * Header names (any case) removed when a redirect leaves the origin, in addition to
   * `authorization`, `cookie` and `proxy-authorization`: put every header carrying a secret here.
   */
  readonly sensitiveHeaders?: ReadonlyArray<string>;
  /** An undici dispatcher to send through instead of gramkit's (see the module comment). */
  readonly dispatcher?: HttpDispatcher;
  /**
   * The body carries a secret: a 307/308 redirect to another origin (which would re-send it) is
   * refused (`REDIRECT_REFUSED`) instead of followed. Default false.
   */
  readonly sensitiveBody?: boolean;
  /** A secret redactor: applied to errors (messages, URLs), and to URLs before they are shortened. */
  readonly redact?: (text: string) => string;
}

export interface FetchResponse {
  readonly status: number;
  readonly statusText: string;
  /** Response headers, names in lower case, repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  /** The body decoded with the charset of `content-type` (UTF-8 when absent or unknown). */
  readonly text: string;
  /** The URL that answered (after redirects). */
  readonly url: string;
  /** The URLs redirected to, in order. */
  readonly redirects: ReadonlyArray<string>;
}

export type FetchErrorCode =
  | typeof NetCodes.INVALID_URL
  | typeof NetCodes.UNSUPPORTED_SCHEME
  | typeof NetCodes.HOST_NOT_ALLOWED
  | typeof NetCodes.PRIVATE_ADDRESS
  | typeof NetCodes.TOO_MANY_REDIRECTS
  | typeof NetCodes.INSECURE_REDIRECT
  | typeof NetCodes.REDIRECT_REFUSED
  | typeof NetCodes.INVALID_REQUEST
  | typeof NetCodes.RESPONSE_TOO_LARGE
  | typeof NetCodes.TIMEOUT
  | typeof NetCodes.CANCELLED
  | typeof NetCodes.NETWORK_ERROR;

/** A coded error (core/result.ts); `retryable` says whether the same request may succeed later. */
export interface FetchError extends CodedError<FetchErrorCode> {
  /** The URL concerned and, for redirects and size errors, what was seen. */
  readonly details?: { readonly url?: string; readonly status?: number; readonly maxBytes?: number; readonly [key: string]: unknown };
}

// -------------------------------------------------------------------------------------------------
// dispatcher
// -------------------------------------------------------------------------------------------------

const PRIVATE_ADDRESS_ERROR = NetCodes.PRIVATE_ADDRESS;

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `dns.lookup` that refuses names resolving to a private address (any of them). */
const safeLookup =
  (allowPrivateAddresses: boolean) =>
  (hostname: string, options: { family?: number | string; all?: boolean; hints?: number } | LookupCallback, cb?: LookupCallback): void => {
    const callback = (typeof options === 'function' ? options : cb) as LookupCallback;
    const opts = typeof options === 'function' ? {} : options;
    const allOptions: LookupAllOptions = { all: true };
    if (opts.family === 4 || opts.family === 6) allOptions.family = opts.family;
    if (opts.hints !== undefined) allOptions.hints = opts.hints;
    dnsLookup(hostname, allOptions, (err, addresses) => {
      if (err) return callback(err, opts.all ? [] : '');
      const blocked = allowPrivateAddresses ? undefined : addresses.find((a) => isPrivateAddress(a.address));
      if (blocked !== undefined) {
        const e: NodeJS.ErrnoException = new Error(`"${hostname}" resolves to ${blocked.address}, a private, loopback or reserved address`);
        e.code = PRIVATE_ADDRESS_ERROR;
        return callback(e, opts.all ? [] : '');
      }
      if (opts.all) return callback(null, addresses);
      const first = addresses[0];
      if (first === undefined) {
        const e: NodeJS.ErrnoException = new Error(`"${hostname}" has no address`);
        e.code = 'ENOTFOUND';
        return callback(e, '');
      }
      callback(null, first.address, first.family);
    });
  };

const dispatchers = new Map<boolean, Promise<Agent>>();

/**
 * An undici Agent whose connections check the resolved addresses (private ones refused unless
 * `allowPrivateAddresses`). `safeFetch` uses one of these when no dispatcher is given; build your
 * own when you need other agent options.
 */
export const safeDispatcher = (
  options: { readonly allowPrivateAddresses?: boolean; readonly agent?: Readonly<Record<string, unknown>> } = {},
): Promise<HttpDispatcher> =>
  safeAgent({
    ...(options.allowPrivateAddresses !== undefined ? { allowPrivateAddresses: options.allowPrivateAddresses } : {}),
    ...(options.agent !== undefined ? { agent: options.agent as Agent.Options } : {}),
  });

/** `safeDispatcher` with undici's own types, for this module. */
const safeAgent = async (options: { readonly allowPrivateAddresses?: boolean; readonly agent?: Agent.Options }): Promise<Agent> => {
  const allowPrivate = options.allowPrivateAddresses ?? false;
  const { Agent } = await loadUndici();
  return new Agent({ ...options.agent, connect: { ...(options.agent?.connect as object | undefined), lookup: safeLookup(allowPrivate) } });
};

const defaultDispatcher = (allowPrivate: boolean): Promise<Agent> => {
  let d = dispatchers.get(allowPrivate);
  if (d === undefined) {
    d = safeAgent({ allowPrivateAddresses: allowPrivate });
    dispatchers.set(allowPrivate, d);
  }
  return d;
};

// -------------------------------------------------------------------------------------------------
// fetching
// -------------------------------------------------------------------------------------------------

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const ALWAYS_SENSITIVE = ['authorization', 'cookie', 'proxy-authorization'];
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const allowlists = new Map<string, Either<string, HostAllowlist>>();

export const safeFetch = async (url: string, options: SafeFetchOptions): Promise<Result<FetchResponse, FetchError>> => {
  const r = await fetchChecked(url, options);
  const redact = options.redact;
  if (r.ok || redact === undefined) return r;
  const e = r.error;
  const details = e.details === undefined ? undefined : Object.fromEntries(Object.entries(e.details).map(([k, v]) => [k, redactDetail(v, redact)]));
  return err({ ...e, message: redact(e.message), ...(details !== undefined ? { details } : {}) });
};

const redactDetail = (v: unknown, redact: (s: string) => string): unknown =>
  typeof v === 'string' ? redact(v) : Array.isArray(v) ? v.map((x) => redactDetail(x, redact)) : v;

const fetchChecked = async (url: string, options: SafeFetchOptions): Promise<Result<FetchResponse, FetchError>> => {
  const allowlist = resolveAllowlist(options.allowedHosts);
  if (isLeft(allowlist)) return failure(NetCodes.INVALID_REQUEST, allowlist.left, false);
  const method = (options.method ?? 'GET').toUpperCase();
  if (!TOKEN.test(method)) return failure(NetCodes.INVALID_REQUEST, `"${options.method}" is not an HTTP method`, false);
  const headerProblem = checkHeaders(options.headers ?? {});
  if (headerProblem !== undefined) return failure(NetCodes.INVALID_REQUEST, headerProblem, false);
  if (options.signal?.aborted) return failure(NetCodes.CANCELLED, 'the request was cancelled before it was sent', false, { url: safeUrl(url, options.redact) });

  const allowPrivate = options.allowPrivateAddresses ?? false;
  const { request } = await loadUndici();
  const dispatcher: Dispatcher = options.dispatcher !== undefined ? undiciDispatcher(options.dispatcher) : await defaultDispatcher(allowPrivate);
  const maxRedirects = Math.max(0, options.maxRedirects ?? 5);

  // one deadline for the whole exchange; the caller's signal cancels it too
  const controller = new AbortController();
  let timedOut = false;
  const timer =
    Number.isFinite(options.timeoutMs) && options.timeoutMs < 2 ** 31 - 1
      ? setTimeout(
          () => {
            timedOut = true;
            controller.abort();
          },
          Math.max(0, options.timeoutMs),
        )
      : undefined;
  const stopListening = onAbort(options.signal, () => controller.abort());

  const interrupted = (current: string): Err<FetchError> =>
    timedOut
      ? failure(NetCodes.TIMEOUT, `no complete response from ${origin(current)} within ${options.timeoutMs} ms`, true, { url: current })
      : failure(NetCodes.CANCELLED, `the request to ${origin(current)} was cancelled`, false, { url: current });

  let current = url;
  let currentMethod = method;
  let headers: Record<string, string> = { ...(options.headers ?? {}) };
  let body = options.body;
  const redirects: string[] = [];
  try {
    for (;;) {
      let parsed: URL;
      try {
        parsed = new URL(current);
      } catch {
        return failure(NetCodes.INVALID_URL, `"${safeUrl(current, options.redact)}" is not a valid absolute URL`, false, { url: current });
      }
      current = parsed.href;
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
        return failure(NetCodes.UNSUPPORTED_SCHEME, `only http and https URLs can be fetched, not ${parsed.protocol.slice(0, -1)}:`, false, { url: current });
      if (parsed.username !== '' || parsed.password !== '')
        return failure(NetCodes.INVALID_URL, `URLs with credentials (user:password@host) are refused: send them in a header`, false, { url: current });
      const decision = checkHost(parsed, allowlist.right, allowPrivate);
      if (!decision.allowed) return failure(decision.code, decision.message, false, { url: current });

      let res: Dispatcher.ResponseData;
      try {
        res = await request(parsed, {
          method: currentMethod as Dispatcher.HttpMethod,
          headers,
          body: body ?? null,
          dispatcher,
          signal: controller.signal,
          headersTimeout: clampTimeout(options.timeoutMs),
          bodyTimeout: clampTimeout(options.timeoutMs),
        });
      } catch (e) {
        if (controller.signal.aborted) return interrupted(current);
        return requestFailure(e, current);
      }

      const location = res.headers.location;
      // with maxRedirects 0 a 3xx response is the answer
      if (REDIRECTS.has(res.statusCode) && location !== undefined && maxRedirects > 0) {
        await discard(res.body);
        if (redirects.length >= maxRedirects)
          return failure(NetCodes.TOO_MANY_REDIRECTS, `more than ${maxRedirects} redirects, starting at ${origin(url)}`, false, {
            url: current,
            redirects: [...redirects],
          });
        let next: URL;
        try {
          next = new URL(Array.isArray(location) ? (location[0] ?? '') : location, parsed);
        } catch {
          return failure(NetCodes.INVALID_URL, `${origin(current)} redirected to an invalid URL`, false, { url: current, status: res.statusCode });
        }
        if (parsed.protocol === 'https:' && next.protocol === 'http:' && !options.allowInsecureRedirects)
          return failure(
            NetCodes.INSECURE_REDIRECT,
            `${origin(current)} redirected from https to http (${origin(next.href)}), which would send the request unencrypted`,
            false,
            {
              url: current,
              status: res.statusCode,
            },
          );
        // method and body as the fetch standard says
        if (res.statusCode === 303 ? currentMethod !== 'HEAD' : (res.statusCode === 301 || res.statusCode === 302) && currentMethod === 'POST') {
          currentMethod = 'GET';
          body = undefined;
          headers = withoutHeaders(headers, BODY_HEADERS);
        }
        if (next.origin !== parsed.origin && body !== undefined && options.sensitiveBody === true)
          return failure(
            NetCodes.REDIRECT_REFUSED,
            `${origin(current)} redirected (${res.statusCode}) to ${origin(next.href)}, which would re-send a request body that holds a secret to another origin`,
            false,
            {
              url: current,
              status: res.statusCode,
            },
          );
        if (next.origin !== parsed.origin) headers = withoutHeaders(headers, [...ALWAYS_SENSITIVE, ...(options.sensitiveHeaders ?? [])]);
        current = next.href;
        redirects.push(current);
        continue;
      }

      const responseHeaders = flattenHeaders(res.headers);
      const declared = Number(responseHeaders['content-length']);
      if (Number.isFinite(declared) && declared > options.maxBytes) {
        res.body.destroy();
        return tooLarge(current, options.maxBytes, res.statusCode, declared);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of res.body) {
          const b = chunk as Buffer;
          size += b.length;
          if (size > options.maxBytes) {
            res.body.destroy();
            return tooLarge(current, options.maxBytes, res.statusCode);
          }
          chunks.push(b);
        }
      } catch (e) {
        if (controller.signal.aborted) return interrupted(current);
        return requestFailure(e, current);
      }
      const bytes = Buffer.concat(chunks, size);
      const bodyBytes = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      return ok({
        status: res.statusCode,
        statusText: res.statusText ?? '',
        headers: responseHeaders,
        body: bodyBytes,
        text: decodeText(bodyBytes, responseHeaders['content-type']),
        url: current,
        redirects,
      });
    }
  } finally {
    clearTimeout(timer);
    stopListening();
  }
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const failure = (reason: FetchErrorCode, message: string, retryable: boolean, details?: FetchError['details']): Err<FetchError> =>
  err({ code: canonicalOf(reason), reason, message, retryable, ...(details !== undefined ? { details } : {}) });

const tooLarge = (url: string, maxBytes: number, status: number, declared?: number): Err<FetchError> =>
  failure(
    NetCodes.RESPONSE_TOO_LARGE,
    declared !== undefined
      ? `the response of ${origin(url)} is ${declared} bytes, more than the limit of ${maxBytes}`
      : `the response of ${origin(url)} is larger than the limit of ${maxBytes} bytes`,
    false,
    { url, status, maxBytes },
  );

/** Parsed allowlists by content (arrays may be mutated between calls, so not by identity). */
const resolveAllowlist = (hosts: ReadonlyArray<string> | HostAllowlist): Either<string, HostAllowlist> => {
  if (!Array.isArray(hosts)) return right(hosts as HostAllowlist);
  const list = hosts as ReadonlyArray<string>;
  const key = JSON.stringify(list);
  let cached = allowlists.get(key);
  if (cached === undefined) {
    const parsed = parseAllowedHosts(list);
    cached = isLeft(parsed) ? left(parsed.left.map((d) => d.message).join('; ')) : right(parsed.right);
    if (allowlists.size >= 256) allowlists.clear();
    allowlists.set(key, cached);
  }
  return cached;
};

const checkHeaders = (headers: Readonly<Record<string, string>>): string | undefined => {
  for (const [name, value] of Object.entries(headers)) {
    if (!TOKEN.test(name)) return `"${name}" is not a valid header name`;
    if (typeof value !== 'string' || /[\r\n\0]/.test(value)) return `the value of header "${name}" contains a line break or NUL character`;
  }
  return undefined;
};

const withoutHeaders = (headers: Record<string, string>, names: ReadonlyArray<string>): Record<string, string> => {
  const drop = new Set(names.map((n) => n.toLowerCase()));
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !drop.has(k.toLowerCase())));
};

const flattenHeaders = (headers: Record<string, string | string[] | undefined>): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
};

const discard = async (body: Dispatcher.ResponseData['body']): Promise<void> => {
  try {
    await body.dump({ limit: 64 * 1024 });
  } catch {
    body.destroy();
  }
};

const UTF8 = new TextDecoder('utf-8');

const decodeText = (bytes: Uint8Array, contentType: string | undefined): string => {
  const charset = contentType === undefined ? undefined : /charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1]?.toLowerCase();
  if (charset === undefined || charset === 'utf-8' || charset === 'utf8') return UTF8.decode(bytes);
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return UTF8.decode(bytes);
  }
};

const clampTimeout = (ms: number): number => (Number.isFinite(ms) && ms > 0 ? Math.min(ms, 2 ** 31 - 1) : 0);

/** Maps undici and system errors to codes; messages name the origin only (paths and queries may carry secrets). */
const requestFailure = (e: unknown, url: string): Err<FetchError> => {
  const code = errorCode(e);
  const where = origin(url);
  switch (code) {
    case PRIVATE_ADDRESS_ERROR:
      return failure(NetCodes.PRIVATE_ADDRESS, `${errorMessage(e)}; private addresses are refused unless allowPrivateAddresses is set`, false, { url });
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return failure(NetCodes.TIMEOUT, `${where} did not answer in time`, true, { url });
    case 'UND_ERR_INVALID_ARG':
    case 'ERR_INVALID_ARG_TYPE':
    case 'ERR_INVALID_ARG_VALUE':
      return failure(NetCodes.INVALID_REQUEST, `the request to ${where} is malformed: ${errorMessage(e)}`, false, { url });
    case 'ENOTFOUND':
      return failure(NetCodes.NETWORK_ERROR, `the host of ${where} was not found (DNS)`, false, { url, cause: code });
    case 'ECONNREFUSED':
      return failure(NetCodes.NETWORK_ERROR, `${where} refused the connection`, true, { url, cause: code });
    default:
      return failure(NetCodes.NETWORK_ERROR, `the request to ${where} failed: ${errorMessage(e)}`, true, {
        url,
        ...(code !== undefined ? { cause: code } : {}),
      });
  }
};

const errorCode = (e: unknown): string | undefined => {
  for (let cur: unknown = e, depth = 0; cur !== undefined && cur !== null && depth < 5; cur = (cur as { cause?: unknown }).cause, depth++) {
    const c = (cur as { code?: unknown }).code;
    if (typeof c === 'string') return c;
  }
  return undefined;
};

const errorMessage = (e: unknown): string => {
  for (let cur: unknown = e, depth = 0; cur instanceof Error && depth < 5; cur = cur.cause, depth++) {
    if ((cur as { code?: unknown }).code === PRIVATE_ADDRESS_ERROR || cur.cause === undefined) return cur.message;
  }
  return e instanceof Error ? e.message : String(e);
};

const origin = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return 'the URL';
  }
};

/** A URL for a message: only the part before any query or fragment (which may carry secrets). */
/** A URL for a message: query and fragment dropped, redacted, then shortened (in that order). */
const safeUrl = (url: string, redact?: (s: string) => string): string => {
  const q = url.search(/[?#]/);
  return redactThenCut(q < 0 ? url : url.slice(0, q), 200, redact);
};
