/**
 * Every command of the CLI. Each module exports `register(program)`; add one line per command.
 */
import type { Command } from 'commander';

export const registerCommands = (program: Command): void => {
  void program;
};
