import { mkdtempSync, readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import type { CliIO } from '../../src/cli/io.js';
import { cli } from '../support/cli.js';
import { ProjectCodes } from '../../src/project/codes.js';
import { type FakeServer, lastUserText, startFakeServer, toolResults } from '../support/fake-llm-server.js';
import { stable } from '../agent/support.js';
import { expectGolden } from '../support/golden.js';

const HELLO = 'examples/helloAgent.gram';
const root = resolve(new URL('../..', import.meta.url).pathname);
const tmp = mkdtempSync(join(tmpdir(), 'gramkit-run-'));

/** What the CLI prints when it waits for a line: the chat prompt, or an approval question. */
const PROMPTS = ['> ', 'Approve? [y]es, [n]o, [e]dit arguments: '];

/**
 * Runs the CLI as on a terminal: `lines` are typed one by one, each once the CLI asks for it (its
 * prompt, or an approval question, was printed), and the input ends at the next prompt (or when
 * the CLI is done). No sleeps: each line waits for the output that says it is read.
 */
const onTerminal = async (argv: ReadonlyArray<string>, lines: ReadonlyArray<string>, cwd = root): Promise<{ code: number; stdout: string; stderr: string }> => {
  let stdout = '';
  let stderr = '';
  let prompts = 0;
  const waiting: Array<{ readonly count: number; readonly resolve: () => void }> = [];
  const prompted = (count: number): Promise<void> => (prompts >= count ? Promise.resolve() : new Promise((resolve) => waiting.push({ count, resolve })));
  const stdin = new PassThrough();
  const io: CliIO = {
    stdout: (t) => void (stdout += t),
    stderr: (t) => {
      stderr += t;
      if (PROMPTS.some((p) => t.endsWith(p))) {
        prompts++;
        for (const w of waiting.splice(0))
          if (prompts >= w.count) w.resolve();
          else waiting.push(w);
      }
    },
    readStdin: async () => '',
    stdin,
    isTTY: true,
    env: {},
    cwd,
  };
  const running = runCli(argv, io);
  (async () => {
    for (const [i, line] of lines.entries()) {
      await Promise.race([prompted(i + 1), running]);
      stdin.write(`${line}\n`);
    }
    await Promise.race([prompted(lines.length + 1), running]);
    stdin.end();
  })();
  const code = await running;
  return { code, stdout, stderr };
};

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeServer({
    apiKey: 'k-test',
    script: (r) => {
      const results = toolResults(r);
      if (results.length > 0) return { text: JSON.parse(results[0]?.content ?? '""') as string };
      const name = /I'm (\w+)/.exec(lastUserText(r))?.[1] ?? 'you';
      return { toolCalls: [{ name: 'sayHello', arguments: { personName: name } }] };
    },
  });
});
afterAll(async () => {
  await server.close();
});

describe('gramkit run: the hello agent', () => {
  it('prints the greeting the tool produced, offline, with no key (the README command)', async () => {
    const r = await cli(['run', HELLO, "Hello, I'm Alice"]);
    expect(r).toEqual({ code: 0, stdout: 'Hello, Alice! Nice to meet you.\n', stderr: '' });
  });

  it('--json prints the whole result', async () => {
    const r = await cli(['run', HELLO, "Hello, I'm Alice", '--json']);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.ok).toBe(true);
    expect(result.value.toolsUsed[0]).toMatchObject({
      name: 'sayHello',
      args: { personName: 'Alice' },
      result: { ok: true, value: 'Hello, Alice! Nice to meet you.' },
    });
    expectGolden('agent/golden/hello-run.json', stable(result));
  });

  it('--debug shows each step and the trace on stderr', async () => {
    const r = await cli(['run', HELLO, "Hello, I'm Alice", '--debug']);
    expect(r.stdout).toBe('Hello, Alice! Nice to meet you.\n');
    expect(r.stderr).toMatch(/\[step 1\] model \(tool_calls.*calls sayHello\(\{"personName":"Alice"\}\)/);
    expect(r.stderr).toMatch(/\[step 1\] sayHello → ok "Hello, Alice! Nice to meet you\."/);
    expect(r.stderr).toMatch(/^trace \S+ \(agent hello_world_agent, model offline/m);
    expect(r.stderr).toMatch(/^ {6}tool sayHello /m);
  });

  it('reads the message from stdin when there is none and no terminal', async () => {
    const r = await cli(['run', HELLO], { stdin: "Hi, I'm Bob\n" });
    expect(r).toMatchObject({ code: 0, stdout: 'Hello, Bob! Nice to meet you.\n' });
    const gram = readFileSync(join(root, HELLO), 'utf8');
    const fromStdin = await cli(['run', '-', "Hello, I'm Zed", '--library', 'examples/hello-library.ts'], { stdin: gram });
    expect(fromStdin).toMatchObject({ code: 0, stdout: 'Hello, Zed! Nice to meet you.\n' });
    expect((await cli(['run', '-'], { stdin: gram })).code).toBe(2);
    const empty = await cli(['run', HELLO], { stdin: '  \n' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('give a message');
  });

  it('never falls back to the offline model when a real one was asked for', async () => {
    const r = await cli(['run', HELLO, "Hello, I'm Alice", '--model', 'openai/gpt-4o-mini']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error[AGENT_CONFIGURATION_ERROR]: no OpenAI API key');
    expect(r.stderr).toContain('hint: set OPENAI_API_KEY in the environment, or run the offline demo model with --model offline');
    const a = await cli(['run', HELLO, 'hi', '--model', 'anthropic/claude-x']);
    expect(a.code).toBe(1);
    expect(a.stderr).toContain('ANTHROPIC_API_KEY');
    const unknown = await cli(['run', HELLO, 'hi', '--model', 'gpt-4o']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('did you mean openai/gpt-4o?');
  });

  it('runs the same agent on an OpenAI-compatible API with the key from the environment', async () => {
    const r = await cli(['run', HELLO, "Hello, I'm Carol", '--model', 'openai/gpt-test', '--base-url', server.openaiBaseUrl], {
      env: { OPENAI_API_KEY: 'k-test' },
    });
    expect(r).toMatchObject({ code: 0, stdout: 'Hello, Carol! Nice to meet you.\n' });
    const last = server.requests[server.requests.length - 1];
    expect(last?.headers['authorization']).toBe('Bearer k-test');
    expect(last?.body.model).toBe('gpt-test');
  });

  it('and on an Anthropic-compatible one', async () => {
    const r = await cli(['run', HELLO, "Hello, I'm Dave", '--model', 'anthropic/claude-test', '--base-url', server.anthropicBaseUrl], {
      env: { ANTHROPIC_API_KEY: 'k-test' },
    });
    expect(r).toMatchObject({ code: 0, stdout: 'Hello, Dave! Nice to meet you.\n' });
    expect(server.requests[server.requests.length - 1]?.provider).toBe('anthropic');
  });

  it('reports an API failure with its code and status (exit 1)', async () => {
    const r = await cli(['run', HELLO, 'hi', '--model', 'openai/gpt-test', '--base-url', server.openaiBaseUrl], { env: { OPENAI_API_KEY: 'wrong' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error\[AGENT_LLM_API_ERROR\]: .*401/);
  });

  it('records the model exchanges and replays them', async () => {
    const file = join(tmp, 'hello-recording.json');
    const rec = await cli(['run', HELLO, "Hello, I'm Erin", '--record', file]);
    expect(rec.code).toBe(0);
    expect(existsSync(file)).toBe(true);
    const replay = await cli(['run', HELLO, "Hello, I'm Erin", '--model', `replay:${file}`]);
    expect(replay).toMatchObject({ code: 0, stdout: 'Hello, Erin! Nice to meet you.\n' });
    const other = await cli(['run', HELLO, "Hello, I'm Frank", '--model', `replay:${file}`]);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('AGENT_REPLAY_MISMATCH');
  });

  it('stops at --max-steps with AGENT_MAX_STEPS (exit 1)', async () => {
    const r = await cli(['run', HELLO, "Hello, I'm Alice", '--max-steps', '1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error[AGENT_MAX_STEPS]');
  });
});

describe('gramkit run: libraries', () => {
  it('--library overrides the header, and a library that does not match is reported with the differences', async () => {
    const ok = await cli(['run', HELLO, "Hello, I'm Alice", '--library', 'examples/hello-library.ts']);
    expect(ok.code).toBe(0);
    const wrong = await cli(['run', HELLO, "Hello, I'm Alice", '--library', 'examples/ab/fast-library.ts']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('error[AGENT_CONFIGURATION_ERROR]: agent "hello_world_agent" cannot run');
    expect(wrong.stderr).toContain('error[TOOL_NOT_IN_LIBRARY]: no tool "sayHello" in the library');
    const missing = await cli(['run', HELLO, 'hi', '--library', 'no/such/module.ts']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('PROJECT_LIBRARY_NOT_FOUND');
  });

  it('asks for a library when neither --library nor the header names one', async () => {
    const file = join(tmp, 'no-library.gram');
    writeFileSync(file, readFileSync(join(root, HELLO), 'utf8').replace(/^\{library:.*\}$/m, ''));
    const r = await cli(['run', file, 'hi']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`error[${ProjectCodes.UNIMPLEMENTED_TOOLS}]: no library implements the tools of agent "hello_world_agent" (sayHello)`);
    expect(r.stderr).toContain('hint: pass --library');
  });

  it('picks the agent with --agent when a file has several', async () => {
    const file = join(tmp, 'two-agents.gram');
    writeFileSync(
      file,
      `${readFileSync(join(root, HELLO), 'utf8').replace('./hello-library.ts', join(root, 'examples/hello-library.ts'))}\n[other:Agent {description: "x", instruction: "y"} | sayHello]\n`,
    );
    const r = await cli(['run', file, "Hello, I'm Alice"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error[${ProjectCodes.AMBIGUOUS_AGENT}]: ${file} defines 2 agents; choose one with --agent (hello_world_agent, other)`);
    expect((await cli(['run', file, "Hello, I'm Alice", '--agent', 'other'])).code).toBe(0);
    const typo = await cli(['run', file, 'hi', '--agent', 'otherr']);
    expect([typo.code, typo.stderr]).toEqual([1, expect.stringMatching(new RegExp(`^error\\[${ProjectCodes.UNKNOWN_AGENT}\\]: .*did you mean`))]);
  });

  it('usage errors exit 2', async () => {
    expect((await cli(['run', HELLO, 'hi', '--yes', '--deny'])).code).toBe(2);
    expect((await cli(['run', HELLO, 'hi', '--max-steps', '0'])).code).toBe(2);
    expect((await cli(['run', HELLO, 'hi', '--timeout', 'soon'])).code).toBe(2);
    expect((await cli(['run', HELLO, 'hi', '--base-url', 'http://localhost:1/v1'])).code).toBe(2);
  });
});

describe('gramkit run: built-in tools and approvals', () => {
  const agentFile = join(tmp, 'files-agent.gram');
  const workspace = join(tmp, 'ws');
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, 'notes.txt'), 'remember the milk\n');
  writeFileSync(
    agentFile,
    '[files:Agent {description: "Reads and writes files", instruction: "Use the file tools."} | read_file, write_file, list_directory]\n',
  );

  it('binds built-in tools by name to the built-in library of the workspace', async () => {
    const r = await cli(['run', agentFile, 'read the file notes.txt', '-w', workspace]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('remember the milk');
  });

  it('a call that needs approval is refused without --yes (with a note), done with --yes, refused with --deny', async () => {
    const ask = 'write the file notes.txt with content "buy bread"';
    const refused = await cli(['run', agentFile, ask, '-w', workspace]);
    expect(refused.code).toBe(0);
    expect(refused.stdout).toContain('POLICY_APPROVAL_REQUIRED');
    expect(refused.stderr).toContain('note: 1 call (write_file) needed approval and was refused: run with --yes');
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('remember the milk\n');
    const denied = await cli(['run', agentFile, ask, '-w', workspace, '--deny']);
    expect(denied.stdout).toContain('POLICY_DENIED');
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('remember the milk\n');
    const approved = await cli(['run', agentFile, ask, '-w', workspace, '--yes']);
    expect(approved.code).toBe(0);
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).not.toBe('remember the milk\n');
  });

  it('--library builtin runs an agent whose tools are all built in; a missing workspace is an error', async () => {
    const r = await cli(['run', agentFile, 'list the directory', '--library', 'builtin', '-w', workspace]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('notes.txt');
    const bad = await cli(['run', agentFile, 'list the directory', '-w', join(tmp, 'nowhere')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('does not exist');
  });
});

describe('gramkit run: interactive chat', () => {
  it('keeps the conversation across turns on a terminal', async () => {
    const r = await onTerminal(['run', HELLO, '--json'], ["Hello, I'm Alice", "Hello again, I'm Bob", '/exit']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Chatting with hello_world_agent (model offline)');
    const results = [...r.stdout.matchAll(/^\{[\s\S]*?^\}/gm)].map((m) => JSON.parse(m[0]));
    expect(results).toHaveLength(2);
    expect(results[0].value.content).toBe('Hello, Alice! Nice to meet you.');
    expect(results[1].value.content).toBe('Hello, Bob! Nice to meet you.');
    // the second turn continued the first: its conversation starts with the first one
    expect(results[1].value.messages.slice(0, 4)).toEqual(results[0].value.messages);
  });

  it('streams answers and asks approvals on the terminal', async () => {
    const ws = join(tmp, 'chat-ws');
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(ws, 'a.txt'), 'old');
    const r = await onTerminal(
      ['run', join(tmp, 'files-agent.gram'), '-w', ws],
      ['write the file a.txt with content "new"', 'y', 'read the file a.txt', '/exit'],
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('write_file needs your approval');
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).not.toBe('old');
    expect(r.stdout).toContain('content:');
  });

  it('ends at the end of the input', async () => {
    const r = await onTerminal(['run', HELLO], ["Hello, I'm Alice"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Hello, Alice! Nice to meet you.\n');
  });
});
