/**
 * `read_file`: the content of a file of the workspace as UTF-8 text or base64, up to a size limit
 * (1 MiB by default). Text that is not valid UTF-8 is refused (`INVALID_ENCODING`), never altered:
 * the model can ask for base64 instead. A byte-order mark is kept as U+FEFF.
 */
import { BuiltinCodes } from './codes.js';
import { constants } from 'node:fs';
import * as path from 'node:path';
import type { InvocationContext } from '../../library/tool.js';
import { ToolFailure } from '../../library/result.js';
import { argsRecord, requireString, stringArg, type BuiltinFactory } from './builtin.js';
import { openFileIn, withDirectory } from './workspace-fs.js';
import { resolveWorkspacePath } from './workspace.js';
import { assertPathAllowed } from './path-rules.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export type FileEncoding = 'utf-8' | 'base64';

export interface ReadFileResult {
  readonly content: string;
  /** Size of the file in bytes. */
  readonly size: number;
  /** Last modification, ISO 8601. */
  readonly modified: string;
}

// -------------------------------------------------------------------------------------------------
// tool
// -------------------------------------------------------------------------------------------------

export const readFile: BuiltinFactory = (options) => ({
  name: 'read_file',
  annotations: { permissions: ['fs:read'], safetyLevel: 'low', approval: 'auto' },
  implementation: async (args: unknown, ctx: InvocationContext): Promise<ReadFileResult> => {
    const a = argsRecord(args);
    const input = requireString(a, 'path');
    const encoding = (stringArg(a, 'encoding', 'utf-8') as string) === 'base64' ? 'base64' : 'utf-8';
    const limit = options.limits.readMaxBytes;
    const target = await resolveWorkspacePath(options.workspace, input);
    // the rules judge the file really read, not only the text of the argument
    assertPathAllowed(options, ctx, 'read_file', 'path', input, target.root, target.real, 'read');
    const { bytes, size, modified } = await withDirectory(target.root, path.posix.dirname(target.real), input, async (dir) => {
      // O_NONBLOCK: opening a FIFO must not wait for a writer
      const fh = await openFileIn(target.root, dir, path.posix.basename(target.real), constants.O_RDONLY | constants.O_NONBLOCK, input);
      try {
        const st = await fh.stat();
        if (st.isDirectory()) throw new ToolFailure(BuiltinCodes.NOT_A_FILE, `${JSON.stringify(input)} is a directory; use list_directory to see its entries`);
        if (!st.isFile()) throw new ToolFailure(BuiltinCodes.NOT_A_FILE, `${JSON.stringify(input)} is not a regular file`);
        if (st.size > limit) throw tooLarge(input, st.size, limit);
        // read to the end (the file may change meanwhile), never more than limit + 1 bytes
        let buf = Buffer.allocUnsafe(Math.min(st.size, limit) + 1);
        let n = 0;
        for (;;) {
          if (n === buf.length) {
            if (n > limit) throw tooLarge(input, n, limit); // it grew while being read
            const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, limit + 1));
            buf.copy(bigger, 0, 0, n);
            buf = bigger;
          }
          const { bytesRead } = await fh.read(buf, n, buf.length - n, n);
          if (bytesRead === 0) break;
          n += bytesRead;
        }
        if (n > limit) throw tooLarge(input, n, limit);
        return { bytes: buf.subarray(0, n), size: n, modified: st.mtime.toISOString() };
      } finally {
        await fh.close().catch(() => undefined);
      }
    });
    // and by what it holds: credentials renamed, copied or hard-linked are still credentials
    assertPathAllowed(options, ctx, 'read_file', 'path', input, target.root, target.real, 'read', bytes);
    return { content: encoding === 'base64' ? bytes.toString('base64') : decodeUtf8(bytes, input), size, modified };
  },
});

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const tooLarge = (input: string, size: number, limit: number): ToolFailure =>
  new ToolFailure(
    BuiltinCodes.TOO_LARGE,
    `${JSON.stringify(input)} is ${size} bytes, more than the ${limit}-byte limit of read_file; use text_search to find the lines you need`,
    { details: { size, limit } },
  );

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decodes UTF-8 strictly; `INVALID_ENCODING` with the offset of the first bad byte otherwise. */
export const decodeUtf8 = (bytes: Uint8Array, input: string): string => {
  try {
    return utf8.decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    throw new ToolFailure(
      BuiltinCodes.INVALID_ENCODING,
      `${JSON.stringify(input)} is not UTF-8 text (invalid byte at offset ${at}); read it with encoding "base64"`,
      { details: { offset: at } },
    );
  }
};

/** Offset of the first byte that does not start or continue a valid UTF-8 sequence. */
const firstInvalidUtf8 = (b: Uint8Array): number => {
  let i = 0;
  while (i < b.length) {
    const c = b[i] as number;
    const len = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (len === 0 || i + len > b.length) return i;
    try {
      utf8.decode(b.subarray(i, i + len));
    } catch {
      return i;
    }
    i += len;
  }
  return b.length;
};
