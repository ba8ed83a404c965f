/**
 * The tokens of `gramkit serve`, as Jupyter does it: `--token-file FILE` (one token, or JSON
 * `{"tokens": [{"name", "token", "scopes"}]}`; a file others can read is refused, as ssh refuses
 * such a key), else `$GRAMKIT_TOKEN`, else a random token generated at start, saved in a file only
 * its owner can read (`.gramkit/serve-PORT.token`, removed when the server stops) and printed once.
 * `--no-auth` has none, and says what that allows. A token is never on the command line (`ps`
 * shows every process's arguments to every user).
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, unlink } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { ALL_SCOPES, type Credential, parseTokens } from '../../server/caller.js';
import { isLeft } from '../../core/either.js';
import { type CodedError, failWith, ok, type Result } from '../../core/result.js';
import { type CliCode, CliCodes } from '../codes.js';

export const TOKEN_ENV = 'GRAMKIT_TOKEN';

export type Auth =
  | { readonly kind: 'none' }
  | { readonly kind: 'given'; readonly tokens: ReadonlyArray<Credential>; readonly from: string }
  | { readonly kind: 'generated'; readonly tokens: ReadonlyArray<Credential> };

/** What the server says when it runs without tokens. */
export const NO_AUTH_WARNING =
  '--no-auth: no token. Any process of this machine (any user) and any page a browser here opens may call this server: list, register, change and run its tools, as the user running it. For tests and demos only.';

/** The tokens the options name, or why they cannot be read (`CLI_USAGE`, `CLI_UNREADABLE`, `CLI_TOKEN_FILE_UNSAFE`, `CLI_INVALID_TOKENS`). */
export const readAuth = async (
  options: { readonly auth?: boolean; readonly tokenFile?: string },
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): Promise<Result<Auth, CodedError<CliCode>>> => {
  if (options.auth === false) {
    if (options.tokenFile !== undefined) return failWith(CliCodes.USAGE, '--no-auth and --token-file contradict each other: give one');
    return ok({ kind: 'none' });
  }
  if (options.tokenFile !== undefined) {
    const path = isAbsolute(options.tokenFile) ? options.tokenFile : resolve(cwd, options.tokenFile);
    let text: string;
    try {
      const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
      try {
        const st = await handle.stat();
        if (!st.isFile()) return failWith(CliCodes.TOKEN_FILE_UNSAFE, `the token file ${options.tokenFile} is not a regular file`);
        if ((st.mode & 0o077) !== 0)
          return failWith(
            CliCodes.TOKEN_FILE_UNSAFE,
            `the token file ${options.tokenFile} may be read by others (mode ${(st.mode & 0o777).toString(8)}): chmod 600 ${options.tokenFile}`,
          );
        text = await handle.readFile('utf8');
      } finally {
        await handle.close();
      }
    } catch (e) {
      return failWith(CliCodes.UNREADABLE, `cannot read the token file ${options.tokenFile}: ${(e as Error).message}`);
    }
    const tokens = parseTokens(text);
    return isLeft(tokens)
      ? failWith(CliCodes.INVALID_TOKENS, `${options.tokenFile}: ${tokens.left}`)
      : ok({ kind: 'given', tokens: tokens.right, from: options.tokenFile });
  }
  const fromEnv = env[TOKEN_ENV];
  if (fromEnv !== undefined && fromEnv !== '') {
    const tokens = parseTokens(fromEnv);
    if (isLeft(tokens)) return failWith(CliCodes.INVALID_TOKENS, `$${TOKEN_ENV}: ${tokens.left}`);
    if (tokens.right.length !== 1 || tokens.right[0]?.name !== 'default')
      return failWith(CliCodes.INVALID_TOKENS, `$${TOKEN_ENV} holds one token; give several in a --token-file`);
    return ok({ kind: 'given', tokens: tokens.right, from: `$${TOKEN_ENV}` });
  }
  return ok({ kind: 'generated', tokens: [{ name: 'default', token: randomBytes(32).toString('base64url'), scopes: ALL_SCOPES }] });
};

/** Where a generated token is saved: `.gramkit/serve-PORT.token` under the working directory. */
export const generatedTokenPath = (cwd: string, port: number): string => join(cwd, '.gramkit', `serve-${port}.token`);

/** Saves a generated token in a new file only its owner can read (a stale one of the same port is replaced; a link is never followed). */
export const saveToken = async (path: string, token: string): Promise<void> => {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const existing = await lstat(path).catch(() => undefined);
  if (existing !== undefined) {
    if (!existing.isFile()) throw new Error(`${path} exists and is not a regular file`);
    await unlink(path);
  }
  const handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    await handle.writeFile(`${token}\n`);
  } finally {
    await handle.close();
  }
};
