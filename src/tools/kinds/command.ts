/**
 * The `command` kind: a program run without a shell, its argv made from the arguments, confined to
 * the workspace and judged by the shell rules (src/tools/command). Its block is the command
 * configuration (`argv`, `stdin`, `env`, `sandbox`, …); its default permission is `proc:exec`, at
 * safety `high`. A request may register one only sandboxed, and only when the server allows it.
 */
import { isLeft, left, mapLeft, right } from '../../core/either.js';
import type { JsonObject } from '../../core/json-schema.js';
import type { CommandToolConfigInput } from '../command/command-config.js';
import { decodeCommandToolConfig } from '../command/command-config.js';
import { commandTool } from '../command/command-tool.js';
import { kindFailure, type ToolKind } from './kind.js';

export const commandKind: ToolKind<'command'> = {
  name: 'command',
  example: 'command: {argv: […]}',
  decode: (impl) => {
    const d = decodeCommandToolConfig(impl, 'impl');
    return isLeft(d) ? left(d.left.map((diagnostic) => ({ issue: 'config' as const, diagnostic }))) : right(impl as JsonObject);
  },
  metadataValue: (impl) => impl,
  defaults: () => ({ permissions: ['proc:exec'], safetyLevel: 'high' }),
  build: (spec, impl, ctx) =>
    mapLeft(
      commandTool(spec, impl as unknown as CommandToolConfigInput, {
        workspace: ctx.workspace,
        ...(ctx.env !== undefined ? { env: ctx.env } : {}),
        ...(ctx.rules !== undefined ? { rules: ctx.rules } : {}),
      }),
      (d) => kindFailure('config', d),
    ),
  requestCheck: 'program',
  registryExec: (impl) => {
    const argv = impl['argv'];
    if (!Array.isArray(argv) || argv.length === 0 || !argv.every((a) => typeof a === 'string')) return undefined;
    return { type: 'cmd', cmd: argv[0] as string, args: argv.slice(1) };
  },
};
