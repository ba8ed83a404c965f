/**
 * `gramkit fmt <files...>`: formats gram files. Prints the formatted text, or with `--write`
 * rewrites the files that change, or with `--check` lists the files that are not formatted and
 * exits 1. A file with syntax errors is reported and left alone.
 */
import { isLeft } from '../../core/either.js';
import { rename, writeFile, unlink } from 'node:fs/promises';
import { analyzeGram } from '../../gram/parse.js';
import { formatGram } from '../../gram/print.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type CommandContext } from '../context.js';
import { expandArguments, loadSource } from './gram-input.js';
import { renderDiagnostics } from './gram-report.js';
import { reportError, usageError } from '../report.js';
import { CliCodes } from '../codes.js';

export interface FmtCommandOptions {
  readonly write?: boolean;
  readonly check?: boolean;
  readonly width?: string;
}

/** Replaces a file through a temporary sibling, so a crash never leaves it half written. */
const writeAtomically = async (path: string, text: string): Promise<void> => {
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    await writeFile(tmp, text, 'utf8');
    await rename(tmp, path);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
};

export const action = async (ctx: CommandContext, files: ReadonlyArray<string>, options: FmtCommandOptions): Promise<number> => {
  if (options.write === true && options.check === true) {
    usageError(ctx.io, '--write and --check cannot be used together');
    return EXIT_USAGE;
  }
  const width = options.width === undefined ? 80 : Number(options.width);
  if (!Number.isInteger(width) || width < 20 || width > 400) {
    usageError(ctx.io, '--width must be an integer between 20 and 400');
    return EXIT_USAGE;
  }
  const args = await expandArguments(ctx.io, files);
  if (options.write === true && args.includes('-')) {
    usageError(ctx.io, '--write cannot rewrite standard input');
    return EXIT_USAGE;
  }
  let code = EXIT_OK;
  const unformatted: string[] = [];
  for (const arg of args) {
    const loaded = await loadSource(ctx.io, arg);
    if (!loaded.ok) {
      reportError(ctx.io, loaded.error);
      code = EXIT_FAILURE;
      continue;
    }
    const { name, path, text } = loaded.value;
    const r = analyzeGram(text, { filename: name });
    if (isLeft(r)) {
      ctx.io.stderr(renderDiagnostics(r.left, text, name));
      code = EXIT_FAILURE;
      continue;
    }
    const formatted = formatGram(r.right.value, { width });
    if (options.check === true) {
      if (formatted !== text) {
        unformatted.push(name);
        code = EXIT_FAILURE;
      }
    } else if (options.write === true && path !== undefined) {
      if (formatted !== text) {
        try {
          await writeAtomically(path, formatted);
          ctx.io.stdout(`formatted ${name}\n`);
        } catch (e) {
          reportError(ctx.io, { reason: CliCodes.UNWRITABLE, message: `cannot write ${name}: ${e instanceof Error ? e.message : String(e)}` });
          code = EXIT_FAILURE;
        }
      }
    } else {
      ctx.io.stdout(formatted);
    }
  }
  if (options.check === true) {
    for (const f of unformatted) ctx.io.stdout(`not formatted: ${f}\n`);
    if (unformatted.length > 0)
      ctx.io.stderr(`${unformatted.length} file${unformatted.length === 1 ? '' : 's'} would be reformatted (run gramkit fmt --write)\n`);
    else if (code === EXIT_OK) ctx.io.stdout(`checked ${args.length} file${args.length === 1 ? '' : 's'}: all formatted\n`);
  }
  return code;
};
