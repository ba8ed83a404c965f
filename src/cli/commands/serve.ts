/**
 * `gramkit serve`: the tool service (the catalog routes, the registry routes, MCP, the admin page).
 */
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

export const register = (program: Command, ctx: CommandContext): void => {
  program
    .command('serve')
    .description(
      'serve the tool catalog over HTTP: the catalog routes under /tools, the registry routes under /api/v1, MCP at /mcp, the admin page at /ui, /healthz, /openapi.json',
    )
    .option('--host <host>', 'the address to listen on (default 127.0.0.1)')
    .option('-p, --port <port>', 'the port (default 8081; 0 picks a free one)')
    .option('-d, --data <dir>', 'the catalog directory (flat files; default .gramkit/catalog)')
    .option('--store <url>', 'a Redis catalog shared by several servers: redis://host:port')
    .option('-l, --library <module>', 'a .ts or .js module whose tools "function" tools may name (repeatable)', collect)
    .option('--allow-host <host[:port]>', 'a host HTTP tools and web_fetch may reach (repeatable; *.example.com and * work)', collect)
    .option(
      '--secret <NAME[@HOST,…]>',
      "an environment variable HTTP tools may use as ${NAME}, sent only to HOST,… (without @: only by the operator's own tools) (repeatable)",
      collect,
    )
    .option('-w, --workspace <dir>', 'the directory built-in and command tools are confined to (default: the current directory)')
    .option(
      '--bootstrap <file>',
      'registry Tool JSON to register at start (default: tools_bootstrap.json or config/tools_bootstrap.json, else the default nucleus)',
    )
    .option(
      '--token-file <file>',
      'the tokens requests must carry (Authorization: Bearer): one token, or JSON {"tokens": [{"name", "token", "scopes"}]}; readable by its owner only. Default: $GRAMKIT_TOKEN, else a token generated at start, printed once and saved in .gramkit/serve-PORT.token',
    )
    .option('--no-auth', 'no token: any process of this machine, and any page a browser here opens, may call the server (tests and demos; 127.0.0.1 only)')
    .option(
      '--allow-command-tools',
      'let requests register command tools that run in the sandbox (never sandbox "none": that comes only from the operator\'s own files)',
    )
    .option(
      '--require-scopes',
      "without tokens (--no-auth): enforce the scopes X-Caller-Scopes claims (read_registry, invoke_tool, write_registry, approve_tool; tokens' scopes are always enforced)",
    )
    .option('--approvals <mode>', 'calls that need approval: queue (they wait for a person: GET /api/v1/approvals, the admin page; the default), deny, or yes')
    .option('--approval-timeout <seconds>', 'how long a queued call waits for a person before it is refused (default 300)')
    .option('-y, --yes', 'approve every call that needs approval (--approvals yes)')
    .option('--max-body <bytes>', 'largest request body, /mcp included (default 1048576)')
    .option(
      '--experiments <dir>',
      'show the experiments of this directory (the gramkit ab --out NAME.jsonl files in it): GET /api/v1/experiments, their JSON reports and report pages, linked from the admin page',
    )
    .option(
      '--events <url>',
      "also publish the catalog's events on a NATS bus: nats://host:port (subjects agi.tool.discovered|created|invoked|result|failed; SSE stays at /api/v1/events)",
    )
    .addHelpText(
      'after',
      `
ALLOWED_TOOL_PERMS (comma-separated, e.g. fs:read,net:read) limits the permissions of the tools
that may be invoked. A call that needs approval (write_file over an existing file, delete_file, …)
waits until a caller with the approve_tool scope approves or denies it (POST
/api/v1/approvals/{id}/approve|deny, or the admin page), or the timeout refuses it.
The server stops on SIGINT or SIGTERM. docs/security.md says what each option opens.

Examples:
  gramkit serve
  gramkit serve --port 9000 --data ./catalog --allow-host api.weatherapi.com --secret WEATHER_API_KEY@api.weatherapi.com
  gramkit serve --store redis://127.0.0.1:6379 --host 0.0.0.0 --token-file tokens.json
  gramkit serve --events nats://127.0.0.1:4222
  gramkit serve --experiments results/`,
    )
    .action(async (opts: Record<string, unknown>) => {
      const { action } = await import('../actions/serve.js');
      ctx.exit(await action(ctx, opts));
    });
};
