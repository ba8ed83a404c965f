/**
 * `list_directory`: the entries of a directory of the workspace, optionally recursive, hidden
 * entries on request. Symbolic links are reported as links and never followed; subdirectories are
 * opened relative to their verified parent, so a directory swapped for a link mid-walk is refused.
 */
import { lstat, readdir } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import type { InvocationContext } from '../../library/tool.js';
import { argsRecord, boolArg, checkAborted, stringArg, type BuiltinFactory } from './builtin.js';
import { systemFailure } from './errors.js';
import { childPath, openSubdirectory, withDirectory, type DirHandle } from './workspace-fs.js';
import { resolveWorkspacePath } from './workspace.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export type EntryType = 'file' | 'directory' | 'symlink' | 'other';

export interface DirectoryEntry {
  /** Path relative to the listed directory (`src/a.ts` in a recursive listing). */
  readonly name: string;
  readonly type: EntryType;
  /** Size in bytes (of the link itself for a symbolic link). */
  readonly size: number;
  /** Last modification, ISO 8601. */
  readonly modified: string;
}

export interface ListDirectoryResult {
  readonly entries: ReadonlyArray<DirectoryEntry>;
  /** More entries exist than the limit allowed to return. */
  readonly truncated: boolean;
}

// -------------------------------------------------------------------------------------------------
// tool
// -------------------------------------------------------------------------------------------------

export const listDirectory: BuiltinFactory = (options) => ({
  name: 'list_directory',
  annotations: { permissions: ['fs:read'], safetyLevel: 'low', approval: 'auto' },
  implementation: async (args: unknown, ctx: InvocationContext): Promise<ListDirectoryResult> => {
    const a = argsRecord(args);
    const input = stringArg(a, 'path', '.') as string;
    const recursive = boolArg(a, 'recursive', false);
    const includeHidden = boolArg(a, 'includeHidden', false);
    const max = options.limits.listMaxEntries;
    const target = await resolveWorkspacePath(options.workspace, input, { allowRoot: true });
    const entries: DirectoryEntry[] = [];
    let truncated = false;

    const walk = async (dir: DirHandle, prefix: string): Promise<void> => {
      let names: string[];
      try {
        names = await readdir(dir.path);
      } catch (e) {
        throw systemFailure(e, prefix === '' ? input : `${input}/${prefix}`);
      }
      names.sort(compareNames);
      for (const name of names) {
        if (truncated) return;
        checkAborted(ctx);
        if (!includeHidden && name.startsWith('.')) continue;
        let st: Stats;
        try {
          st = await lstat(childPath(dir, name));
        } catch {
          continue; // removed since readdir: it is no longer an entry
        }
        if (entries.length >= max) {
          truncated = true;
          return;
        }
        const rel = `${prefix}${name}`;
        entries.push({ name: rel, type: entryType(st), size: st.size, modified: st.mtime.toISOString() });
        if (recursive && st.isDirectory()) {
          const sub = await openSubdirectory(target.root, dir, name, `${input}/${rel}`);
          try {
            await walk(sub, `${rel}/`);
          } finally {
            await sub.close();
          }
        }
      }
    };

    await withDirectory(target.root, target.real, input, (dir) => walk(dir, ''));
    return { entries, truncated };
  },
});

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const entryType = (st: Stats): EntryType => (st.isFile() ? 'file' : st.isDirectory() ? 'directory' : st.isSymbolicLink() ? 'symlink' : 'other');

/** Code-point order: deterministic and locale-free. */
const compareNames = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
