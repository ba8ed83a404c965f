/**
 * Every command of the CLI. Each module exports `register(program, ctx)`; add one line per command.
 */
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { register as registerInvoke } from './invoke.js';
import { register as registerParse } from './parse.js';
import { register as registerCheck } from './check.js';
import { register as registerFmt } from './fmt.js';
import { register as registerSchema } from './schema.js';
import { register as registerImport } from './import.js';
import { register as registerTypes } from './types.js';
import { register as registerValidate } from './validate.js';
import { register as registerRun } from './run.js';
import { register as registerAb } from './ab.js';
import { register as registerMcp } from './mcp.js';
import { register as registerServe } from './serve.js';
import { register as registerCatalog } from './catalog.js';
import { register as registerInit } from './init.js';
import { register as registerLsp } from './lsp.js';
import { register as registerWorker } from './worker.js';

type Register = (program: Command, ctx: CommandContext) => void;

/** Each command's name (its first word on the command line) and its declaration, in the order of `--help`. */
const COMMANDS: ReadonlyArray<readonly [string, Register]> = [
  ['init', registerInit],
  ['invoke', registerInvoke],
  ['parse', registerParse],
  ['check', registerCheck],
  ['fmt', registerFmt],
  ['schema', registerSchema],
  ['import', registerImport],
  ['types', registerTypes],
  ['validate', registerValidate],
  ['run', registerRun],
  ['ab', registerAb],
  ['mcp', registerMcp],
  ['serve', registerServe],
  ['catalog', registerCatalog],
  ['lsp', registerLsp],
  ['worker', registerWorker],
];

/**
 * Declares the commands on `program`: only the one `argv` names when its first word is a command
 * (building every command's options costs start-up time, ≈ 10 ms, for nothing), else all of them
 * (`--help`, `help`, no command, an unknown one and its "did you mean").
 */
export const registerCommands = (program: Command, ctx: CommandContext, argv: ReadonlyArray<string> = []): void => {
  const named = COMMANDS.find(([name]) => name === argv[0]);
  for (const [, register] of named !== undefined ? [named] : COMMANDS) register(program, ctx);
};
