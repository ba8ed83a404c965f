/**
 * `text_search` (the default nucleus's `tool_text_search`): finds the lines matching a regular
 * expression in a text, a workspace file, or every file under a workspace directory (hidden entries
 * and binary files skipped, symbolic links not followed). Matching runs in a worker with a
 * deadline, so a catastrophic pattern fails with `TIMEOUT` instead of hanging; the bytes read and
 * the matches returned are capped (`truncated` says so).
 */
import { ToolCodes } from '../../library/codes.js';
import { BuiltinCodes } from './codes.js';
import { constants } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import type { InvocationContext } from '../../library/tool.js';
import { ToolFailure } from '../../library/result.js';
import { argsRecord, boolArg, checkAborted, numberArg, requireString, stringArg, type BuiltinFactory } from './builtin.js';
import { systemFailure } from './errors.js';
import { readFile } from './read-file.js';
import { runRegex, type RegexMatch } from './regex-worker.js';
import { childPath, openFileIn, openSubdirectory, withDirectory, type DirHandle } from './workspace-fs.js';
import { resolveWorkspacePath } from './workspace.js';
import { assertPathAllowed, pathAllowed, relativeToRoot } from './path-rules.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface TextSearchResult {
  /** Every match, in file order then line order (path absent when searching `text`). */
  readonly matches: ReadonlyArray<Partial<Pick<RegexMatch, 'path'>> & Omit<RegexMatch, 'path'>>;
  /** The match limit or the byte limit was reached: there may be more matches. */
  readonly truncated: boolean;
  /** Files searched (0 when searching `text`). */
  readonly filesSearched: number;
}

const MAX_LINE_CHARS = 400;

// -------------------------------------------------------------------------------------------------
// tool
// -------------------------------------------------------------------------------------------------

export const textSearch: BuiltinFactory = (options) => {
  const reader = readFile({ ...options, limits: { ...options.limits, readMaxBytes: options.limits.searchMaxBytes } });
  return {
    name: 'text_search',
    annotations: { permissions: ['fs:read'], safetyLevel: 'low', approval: 'auto' },
    implementation: async (args: unknown, ctx: InvocationContext): Promise<TextSearchResult> => {
      const a = argsRecord(args);
      const pattern = requireString(a, 'pattern');
      const text = stringArg(a, 'text');
      const ignoreCase = boolArg(a, 'ignoreCase', false);
      const includeHidden = boolArg(a, 'includeHidden', false);
      const maxMatches = Math.max(1, Math.min(numberArg(a, 'maxMatches') ?? options.limits.searchMaxMatches, options.limits.searchMaxMatches));
      const flags = `g${ignoreCase ? 'i' : ''}`;
      try {
        new RegExp(pattern, flags);
      } catch (e) {
        throw new ToolFailure(BuiltinCodes.INVALID_PATTERN, `the pattern is not a valid regular expression: ${(e as Error).message}`);
      }
      let files: Array<{ path: string; text: string }>;
      let bytesTruncated = false;
      if (text !== undefined) {
        if (a['path'] !== undefined) throw new ToolFailure(ToolCodes.INVALID_ARGUMENTS, 'give "text" or "path", not both');
        if (text.length > options.limits.searchMaxBytes)
          throw new ToolFailure(BuiltinCodes.TOO_LARGE, `the text is longer than the ${options.limits.searchMaxBytes}-byte limit of text_search`);
        files = [{ path: '', text }];
      } else {
        const input = stringArg(a, 'path', '.') as string;
        const target = await resolveWorkspacePath(options.workspace, input, { allowRoot: true });
        const st = await lstat(target.real).catch((e: unknown) => {
          throw systemFailure(e, input);
        });
        assertPathAllowed(options, ctx, 'text_search', 'path', input, target.root, target.real, 'read');
        if (st.isDirectory()) {
          // every file of the walk meets the rules: files they refuse are skipped, as unreadable ones are
          // (judged by real paths: the walk's names are shown under the path as given)
          const realBase = relativeToRoot(target.root, target.real);
          const real = (rel: string): string => {
            const below = target.relative === '' ? rel : rel.slice(target.relative.length + 1);
            return realBase === '.' ? below : `${realBase}/${below}`;
          };
          const allowed = (rel: string, content?: string): boolean => pathAllowed(options, ctx, 'text_search', 'path', real(rel), 'read', content);
          const collected = await collectFiles(target.root, target.real, input, target.relative, includeHidden, options.limits.searchMaxBytes, ctx, allowed);
          files = collected.files;
          bytesTruncated = collected.truncated;
        } else {
          const content = ((await reader.implementation({ path: input, encoding: 'utf-8' }, ctx)) as { content: string }).content;
          files = [{ path: target.relative, text: content }];
        }
      }
      const outcome = await runRegex({ pattern, flags, files, maxMatches, maxLineChars: MAX_LINE_CHARS }, options.limits.searchTimeoutMs, ctx.signal);
      if (outcome.kind === 'timeout') {
        throw new ToolFailure(
          BuiltinCodes.TIMEOUT,
          `the pattern ran longer than ${options.limits.searchTimeoutMs} ms and was stopped; it probably backtracks catastrophically (nested quantifiers such as (a+)+ or (a|a)*): simplify it`,
        );
      }
      if (outcome.kind === 'error') {
        if (ctx.signal.aborted) checkAborted(ctx);
        throw new ToolFailure(ToolCodes.EXECUTION_ERROR, `the search failed: ${outcome.message}`);
      }
      const matches = text !== undefined ? outcome.matches.map(({ path: _path, ...m }) => m) : outcome.matches;
      return { matches, truncated: outcome.truncated || bytesTruncated, filesSearched: text !== undefined ? 0 : files.length };
    },
  };
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** Text files under a directory (depth first, names sorted), up to `maxBytes` in all. */
const collectFiles = async (
  root: string,
  real: string,
  input: string,
  relative: string,
  includeHidden: boolean,
  maxBytes: number,
  ctx: InvocationContext,
  allowed: (relative: string, content?: string) => boolean,
): Promise<{ files: Array<{ path: string; text: string }>; truncated: boolean }> => {
  const files: Array<{ path: string; text: string }> = [];
  let total = 0;
  let truncated = false;
  const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

  const walk = async (dir: DirHandle, prefix: string): Promise<void> => {
    const names = (await readdir(dir.path).catch(() => [] as string[])).sort();
    for (const name of names) {
      if (truncated) return;
      checkAborted(ctx);
      if (!includeHidden && name.startsWith('.')) continue;
      const rel = prefix === '' ? name : `${prefix}/${name}`;
      if (!allowed(rel)) continue;
      const st = await lstat(childPath(dir, name)).catch(() => undefined);
      if (st === undefined || st.isSymbolicLink()) continue;
      if (st.isDirectory()) {
        const sub = await openSubdirectory(root, dir, name, rel).catch(() => undefined);
        if (sub === undefined) continue;
        try {
          await walk(sub, rel);
        } finally {
          await sub.close();
        }
        continue;
      }
      if (!st.isFile()) continue;
      if (total + st.size > maxBytes) {
        truncated = true;
        return;
      }
      const bytes = await readVerified(root, dir, name, rel);
      if (bytes === undefined) continue;
      if (total + bytes.length > maxBytes) {
        truncated = true; // it grew since it was listed
        return;
      }
      if (bytes.subarray(0, 8192).includes(0)) continue; // binary
      let text: string;
      try {
        text = utf8.decode(bytes);
      } catch {
        continue; // not UTF-8 text
      }
      if (!allowed(rel, text)) continue; // credentials, by what the file holds
      total += bytes.length;
      files.push({ path: rel, text });
    }
  };
  await withDirectory(root, real, input, (dir) => walk(dir, relative));
  return { files, truncated };
};

/** The bytes of a regular file of `dir`, opened without following links and verified; undefined when unreadable. */
const readVerified = async (root: string, dir: DirHandle, name: string, rel: string): Promise<Buffer | undefined> => {
  const fh = await openFileIn(root, dir, name, constants.O_RDONLY | constants.O_NONBLOCK, rel).catch(() => undefined);
  if (fh === undefined) return undefined;
  try {
    const st = await fh.stat();
    return st.isFile() ? await fh.readFile() : undefined;
  } catch {
    return undefined;
  } finally {
    await fh.close().catch(() => undefined);
  }
};
