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

export const registerCommands = (program: Command, ctx: CommandContext): void => {
  registerInit(program, ctx);
  registerInvoke(program, ctx);
  registerParse(program, ctx);
  registerCheck(program, ctx);
  registerFmt(program, ctx);
  registerSchema(program, ctx);
  registerImport(program, ctx);
  registerTypes(program, ctx);
  registerValidate(program, ctx);
  registerRun(program, ctx);
  registerAb(program, ctx);
  registerMcp(program, ctx);
  registerServe(program, ctx);
  registerCatalog(program, ctx);
  registerLsp(program, ctx);
  registerWorker(program, ctx);
};
