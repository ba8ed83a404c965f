/**
 * Every command of the CLI. Each module exports `register(program, ctx)`; add one line per command.
 */
import type { Command } from 'commander';
import type { CommandContext } from '../run.js';

export const registerCommands = (program: Command, ctx: CommandContext): void => {
  void program;
  void ctx;
};
