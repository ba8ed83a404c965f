/**
 * Each command that runs a specification file parses it once (src/project/project-file.ts): the
 * header's library and the specifications come from that one parse, and naming a built-in tool
 * links the file again without parsing it again. `GRAMKIT_TRACE=parse` prints a line for each parse
 * the CLI makes; test/architecture/one-parse.test.ts keeps every other way of parsing out of these
 * commands, so the lines counted here are all the parses there are.
 *
 * `gramkit serve` takes no specification file (its tools are its catalog's records, which the
 * catalog layer decodes): it makes no parse at all, even with a `--library` whose function tools it serves.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cli, SERVE_AUTH_ARGS, startCli } from '../support/cli.js';

const root = resolve(new URL('../..', import.meta.url).pathname);
const tmp = mkdtempSync(join(tmpdir(), 'gramkit-parse-once-'));
const env = { GRAMKIT_TRACE: 'parse' };

// a header that names the library, a tool of the file's, and an agent that also names a built-in tool
const AGENT = join(tmp, 'agent.gram');
writeFileSync(
  AGENT,
  `{library: "./tools.mjs"}
[greet:Tool {description: "Greets a person by name"} | (name::String)==>(::String)]
[greeter:Agent {description: "Greets people", instruction: "Greet the person with greet."} | greet, read_file]
`,
);
writeFileSync(
  join(tmp, 'tools.mjs'),
  `import { createTool } from ${JSON.stringify(pathToFileURL(join(root, 'dist/index.js')).href)};
export const greet = createTool('greet', 'Greets a person by name', { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }, ({ name }) => \`Hello, \${name}!\`);
`,
);
const VARIANT = join(tmp, 'variant.gram');
writeFileSync(VARIANT, '[greet:Tool {description: "Says hello to a person"} | (name::String)==>(::String)]\n');
const INPUTS = join(tmp, 'inputs.jsonl');
writeFileSync(INPUTS, '"Please greet Alice"\n');

/** The files each parse line names, in order. */
const parses = (stderr: string): string[] => [...stderr.matchAll(/^gramkit: trace: parse (\S+) \(/gm)].map((m) => m[1] as string);

describe('each command parses a specification file once (GRAMKIT_TRACE=parse)', () => {
  it('run: the header, the agent and its built-in tool from one parse', async () => {
    const r = await cli(['run', AGENT, 'Please greet Alice', '--model', 'offline', '--workspace', tmp], { env, cwd: tmp });
    expect([r.code, r.stdout]).toEqual([0, expect.stringContaining('Hello, Alice!')]);
    expect(parses(r.stderr)).toEqual([AGENT]);
  });

  it('invoke', async () => {
    const r = await cli(['invoke', AGENT, '--tool', 'greet', '--args', '{"name": "Bob"}'], { env, cwd: tmp });
    expect([r.code, JSON.parse(r.stdout)]).toEqual([0, { ok: true, value: 'Hello, Bob!' }]);
    expect(parses(r.stderr)).toEqual([AGENT]);
  });

  it('mcp', async () => {
    const r = await cli(['mcp', AGENT, '--no-watch', '--workspace', tmp], { env, cwd: tmp, stdin: '' });
    expect(r.code).toBe(0);
    expect(parses(r.stderr)).toEqual([AGENT]);
  });

  it('ab: the agent file once, and each --spec file once', async () => {
    const r = await cli(['ab', AGENT, '-l', './tools.mjs', '-i', INPUTS, '--spec', VARIANT, '--workspace', tmp, '--json'], { env, cwd: tmp });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).summaries).toHaveLength(2);
    expect(parses(r.stderr)).toEqual([AGENT, VARIANT]);
  });

  it('check', async () => {
    const r = await cli(['check', AGENT], { env, cwd: tmp });
    expect(r.code).toBe(0);
    expect(parses(r.stderr)).toEqual([AGENT]);
  });

  it('serve: no parse', async () => {
    const s = await startCli(['serve', '--port', '0', '--data', join(tmp, 'catalog'), '-l', './tools.mjs', '--workspace', tmp, ...SERVE_AUTH_ARGS], {
      env,
      cwd: tmp,
    });
    s.stop();
    expect(await s.done).toBe(0);
    expect(s.out()).toContain('listening on');
    expect(parses(s.err())).toEqual([]);
  });

  it('without GRAMKIT_TRACE, no trace', async () => {
    const r = await cli(['invoke', AGENT, '--tool', 'greet', '--args', '{"name": "Bob"}'], { cwd: tmp });
    expect([r.code, r.stderr]).toEqual([0, '']);
  });
});
