/**
 * Who calls: the credentials a server accepts (a bearer token, its name, the scopes it grants), the
 * one that a request carries, and the scopes the caller is granted. The gatekeeper of the service
 * identifies every request once (mounted handlers such as `/mcp` included) and records the
 * caller's scopes; `readScopes` (request.ts) reads them back. With credentials, a caller's scopes
 * are its token's, whatever `X-Caller-Scopes` says; without (a server started with `--no-auth`),
 * the header is taken at its word: no authentication, so no boundary between callers.
 *
 * `parseTokens` reads a tokens file: one token (every scope), or JSON
 * `{"tokens": [{"name", "token", "scopes"}]}`.
 */
import { timingSafeEqual } from 'node:crypto';
import { type Either, left, right } from '../core/either.js';
import { isRecord } from '../core/json.js';
import { Scopes } from './codes.js';
import type { RequestView } from './request-view.js';

/** A token the server accepts and what it grants. */
export interface Credential {
  /** Who holds it (shown in logs and errors, never the token). */
  readonly name: string;
  readonly token: string;
  /** The scopes it grants: `read_registry`, `invoke_tool`, `write_registry`. */
  readonly scopes: ReadonlyArray<string>;
}

/** Every scope: what a single token (the one `gramkit serve` generates) grants. */
export const ALL_SCOPES: ReadonlyArray<string> = Object.values(Scopes);

/** The shortest token accepted from a file (a generated one has 43 characters). */
export const MIN_TOKEN_LENGTH = 16;

const TOKEN_CHARS = /^[\x21-\x7e]+$/;

/** The bearer token of a request, if it has one. */
export const bearerOf = (request: RequestView): string | undefined => {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(request.header('authorization') ?? '');
  return m === null ? undefined : (m[1] as string);
};

/** The accepted tokens as bytes, made once per list of credentials (not per request). */
const secretsOf = new WeakMap<ReadonlyArray<Credential>, ReadonlyArray<Buffer>>();

const secrets = (credentials: ReadonlyArray<Credential>): ReadonlyArray<Buffer> => {
  let s = secretsOf.get(credentials);
  if (s === undefined) {
    s = credentials.map((c) => Buffer.from(c.token));
    secretsOf.set(credentials, s);
  }
  return s;
};

/** The credential a request carries, among those the server accepts (each compared in constant time). */
export const credentialOf = (request: RequestView, credentials: ReadonlyArray<Credential>): Credential | undefined => {
  const given = bearerOf(request);
  if (given === undefined) return undefined;
  const a = Buffer.from(given);
  const expected = secrets(credentials);
  let found: Credential | undefined;
  for (const [i, b] of expected.entries()) if (a.length === b.length && timingSafeEqual(a, b) && found === undefined) found = credentials[i];
  return found;
};

/** The scopes `X-Caller-Scopes` claims (believed only by a server without credentials). */
export const claimedScopes = (request: RequestView): ReadonlySet<string> =>
  new Set(
    (request.header('x-caller-scopes') ?? '')
      .split(/[\s,]+/)
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  );

const granted = new WeakMap<Request, ReadonlySet<string>>();

/** Records the scopes the gatekeeper granted a request. */
export const grantScopes = (request: Request, scopes: ReadonlySet<string>): void => {
  granted.set(request, scopes);
};

/** The scopes granted to a request: none when the gatekeeper has not seen it. */
export const grantedScopes = (request: Request): ReadonlySet<string> => granted.get(request) ?? new Set();

/** A tokens file: one token on a line of its own (every scope), or `{"tokens": [{"name", "token", "scopes"}]}`. */
export const parseTokens = (text: string): Either<string, ReadonlyArray<Credential>> => {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) {
    if (trimmed.includes('\n')) return left('a tokens file holds one token, or JSON {"tokens": [{"name", "token", "scopes"}]}');
    const bad = tokenProblem(trimmed);
    return bad !== undefined ? left(bad) : right([{ name: 'default', token: trimmed, scopes: ALL_SCOPES }]);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(trimmed);
  } catch (e) {
    return left(`the tokens file is not JSON: ${(e as Error).message}`);
  }
  const list = isRecord(doc) ? doc['tokens'] : undefined;
  if (!Array.isArray(list) || list.length === 0) return left('the tokens file needs "tokens": a non-empty array of {"name", "token", "scopes"}');
  const out: Credential[] = [];
  for (const [i, entry] of list.entries()) {
    if (!isRecord(entry)) return left(`tokens[${i}] is not an object`);
    const { name, token, scopes } = entry;
    if (typeof name !== 'string' || !/^[\w.-]{1,64}$/.test(name)) return left(`tokens[${i}].name must be 1 to 64 letters, digits, _ . or -`);
    if (typeof token !== 'string') return left(`tokens[${i}] (${name}): "token" must be a string`);
    const bad = tokenProblem(token);
    if (bad !== undefined) return left(`tokens[${i}] (${name}): ${bad}`);
    if (!Array.isArray(scopes) || !scopes.every((s): s is string => typeof s === 'string' && ALL_SCOPES.includes(s))) {
      return left(`tokens[${i}] (${name}): "scopes" must list some of ${ALL_SCOPES.join(', ')}`);
    }
    if (out.some((c) => c.name === name)) return left(`tokens[${i}]: the name ${name} is given twice`);
    if (out.some((c) => c.token === token)) return left(`tokens[${i}] (${name}): the same token is given twice`);
    out.push({ name, token, scopes: [...new Set(scopes)] });
  }
  return right(out);
};

const tokenProblem = (token: string): string | undefined =>
  token.length < MIN_TOKEN_LENGTH
    ? `a token needs at least ${MIN_TOKEN_LENGTH} characters (got ${token.length}); generate one with: openssl rand -base64 32`
    : !TOKEN_CHARS.test(token)
      ? 'a token is printable ASCII without spaces'
      : undefined;
