import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  bindTool,
  invoke,
  onEvent,
  toolLibrary,
  type BoundTool,
  type InvocationEvent,
  type InvokeOptions,
  type JsonObject,
  type Tool,
  type ToolResult,
  type ToolSpecification,
} from '../../src/index.js';
import { commandTool, decodeCommandToolConfig, parseCommandOutput, type CommandToolConfigInput } from '../../src/entries/tools.js';
import { eventually, isAlive } from './proc-support.js';
import { expectGolden } from '../support/golden.js';

const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'gramkit-cmd-')));
mkdirSync(join(workspace, 'sub'));
symlinkSync(tmpdir(), join(workspace, 'escape'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

const hostEnv = { PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8', SECRET_TOKEN: 'do-not-pass-me', HOME: '/root' };
const text = { type: 'string' } as const;

const spec = (name: string, properties: JsonObject, required: string[] = Object.keys(properties), outputSchema: JsonObject = {}): ToolSpecification => ({
  name,
  description: `test tool ${name}`,
  typeSignature: '',
  schema: { type: 'object', properties, required, additionalProperties: false },
  outputSchema,
});

const make = (s: ToolSpecification, config: CommandToolConfigInput): Tool => {
  const t = commandTool(s, { env: ['PATH'], ...config }, { workspace, env: hostEnv });
  if (t._tag === 'Left') throw new Error(t.left.map((d) => `${d.code}: ${d.message}`).join('\n'));
  return t.right;
};

const bindings = new WeakMap<Tool, BoundTool>();
const call = async (tool: Tool, s: ToolSpecification, args: unknown, options: InvokeOptions = {}): Promise<ToolResult> => {
  let bound = bindings.get(tool);
  if (bound === undefined) {
    const b = bindTool(s, toolLibrary([tool]));
    if (b._tag === 'Left') throw new Error(JSON.stringify(b.left));
    bound = b.right;
    bindings.set(tool, bound);
  }
  return invoke(bound, args, options);
};
const value = (r: ToolResult): unknown => {
  if (!r.ok) throw new Error(`expected success, got ${r.error.code}: ${r.error.message}`);
  return r.value;
};
const failure = (r: ToolResult) => {
  if (r.ok) throw new Error(`expected failure, got ${JSON.stringify(r.value)}`);
  return r.error;
};

/** printf '%s\0' first {a} {b}: the arguments the program received, split on NUL. */
const argsSpec = spec('args', { a: text, b: text }, ['a']);
const argsTool = make(argsSpec, { argv: ['printf', '%s\\0', 'first', '{a}', '{b}'], output: 'text', allowLeadingDash: false });
const received = async (args: Record<string, unknown>): Promise<string[]> => {
  const out = (value(await call(argsTool, argsSpec, args)) as { output: string }).output;
  return out.split('\0').slice(1, -1);
};

describe('commandTool: one placeholder, one argument, no shell', () => {
  it('injection attempts stay single arguments and run nothing', async () => {
    const attacks = [
      '; rm -rf /',
      '$(touch pwned)',
      '`touch pwned2`',
      'a b\tc\nd',
      `"double" 'single'`,
      '*',
      '| cat /etc/passwd',
      '&& touch pwned3',
      '${HOME}',
    ];
    for (const a of attacks) expect(await received({ a })).toEqual([a]);
    expect(existsSync(join(workspace, 'pwned'))).toBe(false);
    expect(existsSync(join(workspace, 'pwned2'))).toBe(false);
    expect(existsSync(join(workspace, 'pwned3'))).toBe(false);
  });

  it('law: any value (no NUL, no leading "-") reaches the program as exactly one argument', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', maxLength: 40 }).filter((s) => !s.includes('\0') && !s.startsWith('-')),
        fc.string({ unit: 'grapheme', maxLength: 40 }).filter((s) => !s.includes('\0') && !s.startsWith('-')),
        async (a, b) => {
          expect(await received({ a, b })).toEqual([a, b]);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('an absent optional argument leaves its element out; a group goes as a whole', async () => {
    expect(await received({ a: 'x' })).toEqual(['x']);
    const s = spec('grp', { q: text, limit: { type: 'integer' } }, ['q']);
    const t = make(s, { argv: ['printf', '%s\\0', 'first', ['--limit', '{limit}'], '--query={q}'], output: 'text' });
    const args = async (a: Record<string, unknown>) => (value(await call(t, s, a)) as { output: string }).output.split('\0').slice(1, -1);
    expect(await args({ q: 'a b' })).toEqual(['--query=a b']);
    expect(await args({ q: 'a b', limit: 5 })).toEqual(['--limit', '5', '--query=a b']);
  });

  it('values that would start an option are refused, unless after "--" or allowed', async () => {
    const e = failure(await call(argsTool, argsSpec, { a: '--output=/etc/passwd' }));
    expect(e.reason).toBe('TOOL_INVALID_ARGUMENTS');
    expect(e.message).toContain('"a"');
    const s = spec('dd', { a: text });
    const afterDashes = make(s, { argv: ['printf', '%s\\0', 'first', '--', '{a}'], output: 'text' });
    expect((value(await call(afterDashes, s, { a: '-rf' })) as { output: string }).output).toBe('first\0--\0-rf\0');
    const allowed = make(s, { argv: ['printf', '%s\\0', '{a}'], output: 'text', allowLeadingDash: true });
    expect((value(await call(allowed, s, { a: '-n' })) as { output: string }).output).toBe('-n\0');
  });

  it('numbers, booleans and objects become one argument each', async () => {
    const s = spec('types', { n: { type: 'number' }, b: { type: 'boolean' }, o: { type: 'object' } });
    const t = make(s, { argv: ['printf', '%s\\0', '{n}', '{b}', '{o}'], output: 'text' });
    expect((value(await call(t, s, { n: 2.5, b: false, o: { k: ['v w'] } })) as { output: string }).output).toBe('2.5\0false\0{"k":["v w"]}\0');
  });

  it('literal braces are written doubled', async () => {
    const s = spec('awk', { line: text });
    const t = make(s, { argv: ['awk', '{{print $2}}'], stdin: 'line', output: 'text' });
    expect(value(await call(t, s, { line: 'one two three\n' }))).toEqual({ output: 'two\n' });
  });
});

describe('commandTool: input, output, exit codes', () => {
  it('writes stdin from a parameter', async () => {
    const s = spec('wc', { text });
    const t = make(s, { argv: ['wc', '-w'], stdin: 'text' });
    expect(value(await call(t, s, { text: 'one two three' }))).toBe(3);
  });

  it('reads output as JSON: whole JSON, else the last JSON line, else {output}', async () => {
    const s = spec('out', {});
    const lastLine = make(s, { argv: ['sh', '-c', 'echo starting; echo "[1,2]"; echo \'{{"done": true, "n": 2}}\'; echo'] });
    expect(value(await call(lastLine, s, {}))).toEqual({ done: true, n: 2 });
    const pretty = make(s, { argv: ['printf', '{{\\n  "a": 1,\\n  "b": [true]\\n}}\\n'] });
    expect(value(await call(pretty, s, {}))).toEqual({ a: 1, b: [true] });
    const plain = make(s, { argv: ['echo', 'hello world'] });
    expect(value(await call(plain, s, {}))).toEqual({ output: 'hello world\n' });
    const strict = make(s, { argv: ['echo', 'hello world'], output: 'json' });
    expect(failure(await call(strict, s, {})).reason).toBe('COMMAND_OUTPUT_NOT_JSON');
    const raw = make(s, { argv: ['sh', '-c', 'echo out; echo err >&2; exit 3'], output: 'raw', successExitCodes: [0, 3] });
    expect(value(await call(raw, s, {}))).toEqual({ stdout: 'out\n', stderr: 'err\n', exitCode: 3 });
  });

  it('law: log lines then a JSON line give the JSON value', () => {
    const logLine = fc.string({ maxLength: 30 }).filter((l) => !/^\s*[[{]/.test(l) && !l.includes('\n') && !l.includes('\r'));
    fc.assert(
      fc.property(fc.array(logLine, { minLength: 1, maxLength: 5 }), fc.jsonValue(), (logs, v) => {
        const stdout = `${logs.join('\n')}\nnot json: ${logs.length}\n${JSON.stringify(v)}\n`;
        const parsed = parseCommandOutput(stdout);
        if (typeof v === 'object' && v !== null) expect(parsed).toEqual({ json: true, value: JSON.parse(JSON.stringify(v)) });
        else expect(parsed.json).toBe(false); // a bare scalar on the last line is not "JSON-looking"
      }),
    );
  });

  it('a non-zero exit fails with the end of stderr', async () => {
    const s = spec('fail', {});
    const t = make(s, { argv: ['sh', '-c', 'echo "bad input: line 3" >&2; exit 2'] });
    const e = failure(await call(t, s, {}));
    expect(e.reason).toBe('COMMAND_FAILED');
    expect(e.message).toContain('exited with code 2');
    expect(e.message).toContain('bad input: line 3');
    expect(e.details).toMatchObject({ exitCode: 2 });
  });

  it('a missing program', async () => {
    const s = spec('nope', {});
    expect(failure(await call(make(s, { argv: ['gramkit-no-such-program'] }), s, {})).reason).toBe('COMMAND_NOT_FOUND');
  });
});

describe('commandTool: environment and working directory', () => {
  it('passes only the listed variables, plus fixed ones', async () => {
    const s = spec('env', {});
    const t = make(s, { argv: ['env'], env: ['PATH', 'LANG', 'NOT_SET_ANYWHERE'], setEnv: { MODE: 'test' }, output: 'text' });
    const out = (value(await call(t, s, {})) as { output: string }).output;
    const vars = Object.fromEntries(
      out
        .trim()
        .split('\n')
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    // in the sandbox, bubblewrap also sets PWD (the working directory, which is the host's path)
    const { PWD, ...rest } = vars;
    if (PWD !== undefined) expect(PWD).toBe(workspace);
    expect(rest).toEqual({ PATH: hostEnv.PATH, LANG: 'C.UTF-8', MODE: 'test' });
  });

  it('runs in the workspace, or a directory inside it', async () => {
    const s = spec('pwd', { dir: text }, []);
    const root = make(s, { argv: ['pwd'] });
    expect(value(await call(root, s, {}))).toEqual({ output: `${workspace}\n` });
    const sub = make(s, { argv: ['pwd'], cwd: 'sub' });
    expect(value(await call(sub, s, {}))).toEqual({ output: `${join(workspace, 'sub')}\n` });
  });

  it('path parameters stay inside the workspace (real paths, existing or not)', async () => {
    const s = spec('cat', { file: text, dir: text }, ['file']);
    const t = make(s, { argv: ['printf', '%s', '{file}'], pathParameters: ['file'], cwd: '{dir}' });
    for (const file of ['sub', 'sub/new-file.txt', 'new/dir/file', './x', `${workspace}/sub/x`])
      expect(value(await call(t, s, { file })), file).toEqual({ output: file });
    expect(value(await call(t, s, { file: '../x', dir: 'sub' }))).toEqual({ output: '../x' }); // sub/../x is inside
    for (const file of ['../x', '../../etc/passwd', '/etc/passwd', 'escape/anything', 'escape', 'sub/../../x', 'missing/../../x']) {
      const e = failure(await call(t, s, { file }));
      expect(e.reason, file).toBe('COMMAND_INVALID_PATH');
      expect(e.message).toContain('"file"');
    }
  });

  it('a working directory from an argument is confined by real paths', async () => {
    const s = spec('pwd', { dir: text });
    const t = make(s, { argv: ['pwd'], cwd: '{dir}' });
    expect(value(await call(t, s, { dir: 'sub' }))).toEqual({ output: `${join(workspace, 'sub')}\n` });
    for (const dir of ['..', '../..', 'sub/../..', '/etc', 'escape', 'escape/..'])
      expect(failure(await call(t, s, { dir })).reason, dir).toBe('COMMAND_INVALID_PATH');
    expect(failure(await call(t, s, { dir: 'missing' })).reason).toBe('COMMAND_FILE_NOT_FOUND');
  });
});

/** A leader and two children that ignore SIGTERM, the children writing their pids to a file. */
const stubborn = (pidFile: string): string[] => [
  'sh',
  '-c',
  `trap '' TERM; for i in 1 2; do sh -c 'trap "" TERM; echo $$ >> ${pidFile}; while :; do sleep 1; done' & done; echo started; wait`,
];
const pids = (file: string): number[] => readFileSync(file, 'utf8').trim().split('\n').map(Number);

describe('commandTool: timeouts, cancellation, output size', () => {
  it('a timeout kills children that ignore signals; none is left', async () => {
    const s = spec('stubborn', {});
    const pidFile = join(workspace, 'pids-timeout');
    // on the host: the pids written are the host's (in the sandbox its PID namespace dies whole)
    const t = make(s, { argv: stubborn(pidFile), timeoutMs: 400, killGraceMs: 200, sandbox: 'none' });
    const e = failure(await call(t, s, {}));
    expect(e).toMatchObject({ reason: 'COMMAND_TIMEOUT', retryable: true });
    expect(pids(pidFile)).toHaveLength(2);
    expect(await eventually(() => pids(pidFile).every((p) => !isAlive(p)))).toBe(true);
  });

  it('the library timeout (a shorter one given by the caller) kills them too', async () => {
    const s = spec('stubborn', {});
    const pidFile = join(workspace, 'pids-caller');
    const t = make(s, { argv: stubborn(pidFile), timeoutMs: 60_000, killGraceMs: 200, sandbox: 'none' });
    const events: InvocationEvent[] = [];
    const e = failure(await call(t, s, {}, { timeoutMs: 400, observer: onEvent((ev) => events.push(ev)) }));
    expect(e.reason).toBe('TOOL_TIMEOUT');
    expect(await eventually(() => existsSync(pidFile) && pids(pidFile).length === 2 && pids(pidFile).every((p) => !isAlive(p)), 5000)).toBe(true);
    expect(events.map((ev) => ev.type)).toEqual(['invoked', 'failed']);
  });

  it('huge output is cut at the cap', async () => {
    const s = spec('yes', {});
    const t = make(s, { argv: ['cat', '/dev/zero'], maxOutputBytes: 64 * 1024 });
    const e = failure(await call(t, s, {}));
    expect(e.reason).toBe('COMMAND_OUTPUT_TOO_LARGE');
    expect(e.details).toMatchObject({ maxOutputBytes: 65536 });
  });
});

describe('command tool configuration', () => {
  it('decodes with defaults (golden)', () => {
    const input = JSON.parse(readFileSync(new URL('../fixtures/tools/command-config-grep.json', import.meta.url), 'utf8'));
    const d = decodeCommandToolConfig(input);
    expect(d._tag).toBe('Right');
    if (d._tag === 'Right') expectGolden('tools/golden/command-config-grep.decoded.json', d.right);
  });

  it('reports every problem at once', () => {
    const d = decodeCommandToolConfig({ argv: ['{program}', '{unclosed', 'ok'], env: ['BAD-NAME'], cwd: '/etc', timeoutMs: 0, outptu: 'json' });
    const codes = d._tag === 'Left' ? d.left.map((x) => x.code).sort() : [];
    expect(codes).toEqual([
      'COMMAND_CONFIG_UNKNOWN_KEY',
      'COMMAND_CONFIG_VALUE',
      'COMMAND_CWD_OUTSIDE',
      'COMMAND_ENV_NAME',
      'COMMAND_PROGRAM_PLACEHOLDER',
      'COMMAND_TEMPLATE_SYNTAX',
    ]);
    const wrongTypes = decodeCommandToolConfig({ argv: 'ls -la', output: 'yaml' });
    expect(wrongTypes._tag === 'Left' && wrongTypes.left.map((x) => x.message.split(':')[0])).toEqual(['command.argv', 'command.output']);
  });

  it('placeholders and stdin must name parameters; a workspace is required', () => {
    const s = spec('p', { a: text });
    const r = commandTool(s, { argv: ['echo', '{a}', '{b}'], stdin: 'c' }, { workspace: '' });
    expect(r._tag === 'Left' && r.left.map((d) => d.code).sort()).toEqual([
      'COMMAND_UNKNOWN_PLACEHOLDER',
      'COMMAND_UNKNOWN_PLACEHOLDER',
      'COMMAND_WORKSPACE_REQUIRED',
    ]);
  });

  it('reports placeholder problems together with configuration problems', () => {
    const s = spec('p', { a: text });
    const r = commandTool(s, { argv: ['echo', '{a}', '{ghost}', '{{literal}}'], timeoutMs: -1 }, { workspace });
    expect(r._tag === 'Left' && r.left.map((d) => d.code).sort()).toEqual(['COMMAND_CONFIG_VALUE', 'COMMAND_UNKNOWN_PLACEHOLDER']);
  });

  it('annotates command tools as proc:exec, high', () => {
    const t = make(spec('x', {}), { argv: ['true'] });
    expect(t.annotations).toMatchObject({ permissions: ['proc:exec'], safetyLevel: 'high' });
  });
});
