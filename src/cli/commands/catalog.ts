/**
 * `gramkit catalog add|ls|search|enable|disable|rm|export|import`: the catalog's stores without a
 * server (the same files or Redis a server uses, safely at the same time).
 */
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

const storeOptions = (c: Command): Command =>
  c
    .option('-d, --data <dir>', 'the catalog directory (default .gramkit/catalog)')
    .option('--store <url>', 'a Redis catalog: redis://host:port')
    .option('-l, --library <module>', 'a module whose tools "function" tools name, as serve --library (repeatable): without it they are unavailable', collect);

export const register = (program: Command, ctx: CommandContext): void => {
  const catalog = program.command('catalog').description('manage the tool catalog (the store `gramkit serve` serves) from the command line');
  const run =
    (name: string) =>
    async (...args: unknown[]) => {
      const { action } = await import('../actions/catalog.js');
      ctx.exit(await action(ctx, name, args));
    };
  const commands: Command[] = [
    storeOptions(catalog.command('add').description('add the tools of .gram files, tool.json records or registry Tool JSON'))
      .argument('<files...>', '.gram or .json files')
      .option('-b, --bundle <bundle>', 'the bundle (slug or id; created when missing; default "default", or the tool.json\'s bundleID)')
      .option('--version <version>', 'the version of tools whose gram gives none (default 1)')
      .option('--json', 'print what was added as JSON')
      .action(run('add')),
    storeOptions(catalog.command('ls').description('list tools (enabled ones in live bundles unless --all)'))
      .option('-b, --bundle <bundle>', 'only this bundle (slug or id)')
      .option('-t, --tag <tag>', 'only tools with this tag (repeatable)', collect)
      .option('-a, --all', 'also disabled tools and tools of disabled or deleted bundles')
      .option('--bundles', 'list bundles instead of tools')
      .option('--json', 'print JSON')
      .action(run('ls')),
    storeOptions(catalog.command('search').description('search tools: prefix > whole word > fuzzy > recency'))
      .argument('<query...>', 'the words to look for')
      .option('-a, --all', 'also disabled tools')
      .option('-n, --limit <n>', 'most results (default 20)')
      .option('--json', 'print JSON')
      .action(run('search')),
    storeOptions(catalog.command('enable').description('enable a tool, or a bundle with --bundle'))
      .argument('[tool]', 'a toolID, a registry id, or [bundle/]slug[@version]')
      .option('-b, --bundle <bundle>', 'the bundle (slug or id): alone, the bundle itself is enabled')
      .action(run('enable')),
    storeOptions(catalog.command('disable').description('disable a tool, or a bundle with --bundle'))
      .argument('[tool]', 'a toolID, a registry id, or [bundle/]slug[@version]')
      .option('-b, --bundle <bundle>', 'the bundle (slug or id): alone, the bundle itself is disabled')
      .action(run('disable')),
    storeOptions(catalog.command('rm').description('delete a tool (for good), or soft-delete a bundle with --bundle'))
      .argument('[tool]', 'a toolID, a registry id, or [bundle/]slug[@version]')
      .option('-b, --bundle <bundle>', 'the bundle (slug or id): alone, the bundle is soft-deleted (reaped 2 days later if empty)')
      .action(run('rm')),
    storeOptions(catalog.command('export').description('print the catalog as JSON (records, for import) or gram (specifications and implementations)'))
      .option('-f, --format <format>', 'json or gram (default json)')
      .option('-b, --bundle <bundle>', 'only this bundle (slug or id)')
      .option('-o, --out <file>', 'write to a file instead of stdout')
      .action(run('export')),
    storeOptions(catalog.command('import').description('import an export (JSON, ids kept) or a .gram file'))
      .argument('<file>', 'a JSON export or a .gram file')
      .option('-b, --bundle <bundle>', 'for .gram files: the bundle (default "default")')
      .action(run('import')),
  ];
  for (const c of [catalog, ...commands]) c.exitOverride().configureOutput({ writeOut: ctx.io.stdout, writeErr: ctx.io.stderr });
};
