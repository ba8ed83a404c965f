/**
 * Docs that run: every example file and every command shown in the docs.
 *
 * - the agent examples print what docs/agent.md shows;
 * - every `ts` block of docs/agent.md is taken from a file under examples/;
 * - every `gramkit ...` command in a shell block of README.md and docs/*.md runs (in-process)
 *   with exit 0 (README, docs/agent.md) or 0 or 1 (other docs may show a failed check), and prints the `text` block that follows it when there is one (`…` stands for
 *   any word, runs of spaces for any spacing); files it would write go to a temporary directory;
 * - `gramkit serve` in the README starts (on a free port, a fresh data directory), and every `curl`
 *   call of the shell block that follows it answers with JSON that is not a problem;
 * - every `.gram` file under examples/ checks clean, every `.ts` file under examples/ loads, and
 *   every `npx tsx examples/...` command in the docs names an existing file and, when it needs no
 *   key or server, runs with exit 0.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseShell } from '../../src/entries/policy.js';
import { agentBasics } from '../../examples/agent-basics.js';
import { capitalsExperiment } from '../../examples/agent-experiment.js';
import { cli, startCli } from '../support/cli.js';

const root = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');
const out = mkdtempSync(join(tmpdir(), 'gramkit-docs-'));

const files = (dir: string, ext: string): string[] =>
  (readdirSync(join(root, dir), { recursive: true }) as string[])
    .filter((f) => f.endsWith(ext))
    .map((f) => join(dir, f))
    .sort();

const docs = ['README.md', ...files('docs', '.md')].filter((f) => existsSync(join(root, f)));

interface Block {
  readonly lang: string;
  readonly body: string;
}

const blocksOf = (text: string): Block[] => [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```/gm)].map((m) => ({ lang: m[1] ?? '', body: m[2] ?? '' }));

/** The gramkit commands of a shell block, as argv (without `gramkit`). */
const gramkitCommands = (body: string): string[][] => {
  const joined = body.replace(/\\\n\s*/g, ' ');
  const out: string[][] = [];
  for (const line of joined.split('\n')) {
    const t = line.trim();
    if (t === '' || t.startsWith('#')) continue;
    for (const c of parseShell(t).commands) {
      // `npx gramkit …` (a project that installed the package), `node dist/cli.js …` (a clone)
      const words =
        c.words[0] === 'npx' ? c.words.slice(1) : c.words[0] === 'node' && c.words[1] === 'dist/cli.js' ? ['gramkit', ...c.words.slice(2)] : c.words;
      if (words[0] !== 'gramkit' || c.assignments.length > 0) continue;
      // a synopsis (placeholders) is not a command
      if (words.some((w) => /^<.*>$|^\[.*\]?$|\.\.\./.test(w) || w.includes('<'))) continue;
      out.push(words.slice(1));
    }
  }
  return out;
};

/** Options whose value is a file the command writes: sent to a temporary directory. */
const WRITES = new Set(['-o', '--out', '--record', '--report']);
const redirect = (argv: string[]): string[] => argv.map((w, i) => (i > 0 && WRITES.has(argv[i - 1] as string) ? join(out, w.replace(/[/\\]/g, '_')) : w));

/** `expected` as a pattern: `…` any word, spaces any spacing; every line must appear, in order. */
const matchesShown = (actual: string, expected: string): boolean => {
  const lines = expected.trimEnd().split('\n');
  const pattern = lines
    .map((l) =>
      l
        .trim()
        .split(/\s+/)
        .map((w) => (w === '…' ? '\\S+' : w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/…/g, '\\S*')))
        .join('\\s+'),
    )
    .join('[\\s\\S]*?');
  return new RegExp(pattern).test(actual);
};

interface DocCommand {
  readonly doc: string;
  readonly argv: string[];
  readonly shown?: string;
}

const docCommands: DocCommand[] = [];
const serveCommands: Array<{ readonly doc: string; readonly argv: string[]; readonly curls: string[] }> = [];
const curlLines = (body: string): string[] => body.split('\n').filter((l) => l.startsWith('curl '));
for (const doc of docs) {
  const blocks = blocksOf(readFileSync(join(root, doc), 'utf8'));
  blocks.forEach((b, i) => {
    if (!['sh', 'bash', 'shell', 'console'].includes(b.lang)) return;
    // the package user's commands run in a new project of their own (first-project.test.ts)
    if (/^npm install gramkit\b/m.test(b.body) || (doc === 'README.md' && b.body.includes('greeter.gram'))) return;
    const commands = gramkitCommands(b.body);
    const next = blocks[i + 1];
    const shown = commands.length === 1 && next !== undefined && next.lang === 'text' ? next.body : undefined;
    for (const argv of commands) {
      // a server runs until stopped: the README's is started by its own test, with its curl calls
      if (argv[0] === 'serve')
        serveCommands.push({ doc, argv, curls: curlLines(blocks.slice(i + 1).find((x) => ['sh', 'bash'].includes(x.lang))?.body ?? '') });
      else docCommands.push({ doc, argv, ...(shown !== undefined ? { shown } : {}) });
    }
  });
}

describe('agent examples', () => {
  it('agent-basics prints what docs/agent.md shows', async () => {
    expect(await agentBasics()).toEqual([
      'Hello, Alice! Nice to meet you.',
      'sayHello {"personName":"Alice"} → {"ok":true,"value":"Hello, Alice! Nice to meet you."}',
      '8 messages: Hello, Bob! Nice to meet you.',
      'run-started, model-request, model-response, tool-call-started, tool-call-finished, model-request, model-response, run-finished',
      'Hello, Dr. Alice! Nice to meet you.',
      'AGENT_MAX_STEPS: 3 tool calls kept',
    ]);
  });

  it('agent-experiment prints what its comments show', async () => {
    const { lines, table } = await capitalsExperiment();
    expect(lines).toEqual([
      'fast: 6/6 succeeded, tool errors {"NOT_FOUND":2}, 0 answers differ',
      'slow: 6/6 succeeded, tool errors {"NOT_FOUND":2}, 0 answers differ',
      'atlas1950: 4/6 succeeded, tool errors {"NOT_FOUND":2}, 2 answers differ',
      'What is the capital of Brazil: fast Brasília, slow Brasília, atlas1950 Rio de Janeiro',
      'What is the capital of Brazil: fast Brasília, slow Brasília, atlas1950 Rio de Janeiro',
    ]);
    expect(table).toContain('answers that differ between libraries: 2 of 6');
  });

  it('every ts block of docs/agent.md is taken from a file under examples/, and the gram block is helloAgent.gram', () => {
    const doc = readFileSync(join(root, 'docs/agent.md'), 'utf8');
    const sources = files('examples', '.ts').map((f) => readFileSync(join(root, f), 'utf8'));
    const blocks = blocksOf(doc);
    const ts = blocks.filter((b) => b.lang === 'ts');
    expect(ts.length).toBeGreaterThan(3);
    for (const b of ts)
      expect(
        sources.some((s) => s.includes(b.body.trimEnd())),
        b.body,
      ).toBe(true);
    const gram = blocks.filter((b) => b.lang === 'gram');
    expect(gram).toHaveLength(1);
    expect(readFileSync(join(root, 'examples/helloAgent.gram'), 'utf8')).toContain(gram[0]?.body.trimEnd());
  });
});

describe('every gramkit command shown in the docs runs', () => {
  it('compares shown output with … as any word and any spacing, lines in order', () => {
    expect(matchesShown('x\nlib   7  1.2  ok\nend\n', 'lib 7 … ok')).toBe(true);
    expect(matchesShown('lib 7 1.2 ok\n', 'lib 8 … ok')).toBe(false);
    expect(matchesShown('b\na\n', 'a\nb')).toBe(false);
  });

  it('finds the commands (the hello agent among them)', () => {
    expect(docCommands.some((c) => c.argv.join(' ') === "run examples/helloAgent.gram Hello, I'm Alice")).toBe(true);
  });

  it.each(docCommands.map((c) => [`${c.doc}: gramkit ${c.argv.join(' ')}`, c] as const))('%s', async (_, c) => {
    const r = await cli(redirect(c.argv), { cwd: root });
    // other docs may show a failed check on purpose (exit 1: invalid calls in a log, a duplicate
    // in an import); never a usage error or a crash. The agent docs and the README must succeed.
    if (c.doc === 'docs/agent.md' || c.doc === 'README.md') expect(r.code, r.stderr).toBe(0);
    else expect([0, 1], r.stderr).toContain(r.code);
    expect(r.stderr).not.toContain('internal error');
    if (c.shown !== undefined) expect(matchesShown(r.stdout, c.shown), `stdout:\n${r.stdout}\nshown:\n${c.shown}`).toBe(true);
  });
});

describe('the tool service shown in the README', () => {
  it('has a gramkit serve and curl calls', () => {
    const readme = serveCommands.filter((c) => c.doc === 'README.md');
    expect(readme).toHaveLength(1);
    expect(readme[0]?.curls.length).toBeGreaterThan(3);
    expect(serveCommands.filter((c) => c.doc !== 'README.md')).toEqual([]);
  });

  const curlInstalled = existsSync('/usr/bin/curl') || existsSync('/bin/curl');
  it.skipIf(!curlInstalled)(
    'serve starts, and each curl call answers JSON that is not a problem',
    async () => {
      const c = serveCommands.find((x) => x.doc === 'README.md') as (typeof serveCommands)[number];
      const data = mkdtempSync(join(tmpdir(), 'gramkit-readme-serve-'));
      // a free port and a fresh catalog, the rest as written
      const argv = c.argv.map((w, i) => (c.argv[i - 1] === '--port' ? '0' : c.argv[i - 1] === '--data' ? join(data, 'catalog') : w));
      const server = await startCli(argv, { env: { PATH: process.env['PATH'] ?? '' }, cwd: data });
      const url = server.url();
      const stderr = server.err();
      try {
        expect(url, stderr).toBeDefined();
        for (const line of c.curls) {
          // the server's address, and the token file it saved for that port
          const command = line.replaceAll('http://127.0.0.1:8081', url as string).replaceAll('serve-8081.token', `serve-${new URL(url as string).port}.token`);
          const out = await new Promise<{ code: number; stdout: string }>((resolve) =>
            execFile('bash', ['-c', command], { timeout: 30_000, cwd: data }, (error, o) =>
              resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout: o }),
            ),
          );
          expect(out.code, line).toBe(0);
          const body = JSON.parse(out.stdout) as Record<string, unknown>;
          expect(String(body['type'] ?? ''), `${line}\n${out.stdout}`).not.toContain('/problems/');
          if (line.includes('/invoke')) expect(body['ok'], `${line}\n${out.stdout}`).toBe(true);
        }
      } finally {
        server.stop();
        expect(await server.done).toBe(0);
      }
    },
    120_000,
  );
});

describe('every example file', () => {
  it.each(files('examples', '.gram'))('%s checks clean', async (f) => {
    const r = await cli(['check', f], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
  });

  it('every TypeScript example loads', async () => {
    for (const f of files('examples', '.ts')) {
      await expect(import(pathToFileURL(join(root, f)).href), f).resolves.toBeDefined();
    }
  }, 120_000);

  const scripts = new Map<string, string>();
  for (const doc of docs) {
    const text = readFileSync(join(root, doc), 'utf8');
    for (const m of text.matchAll(/^(.*?)npx tsx (examples\/\S+\.ts)([^`\n]*)/gm)) {
      const prefix = m[1] ?? '';
      const line = `${m[2]}${(m[3] ?? '').split('#')[0]?.trimEnd() ?? ''}`;
      // a key or a server the test does not have: only the file is checked
      const runnable = !/[A-Z_]+=\S/.test(prefix) && !/https?:\/\//.test(line);
      scripts.set(line, runnable ? 'run' : (scripts.get(line) ?? 'exists'));
    }
  }

  it('every npx tsx command of the docs names an existing file', () => {
    expect(scripts.size).toBeGreaterThan(3);
    for (const line of scripts.keys()) expect(existsSync(join(root, line.split(' ')[0] as string)), line).toBe(true);
  });

  it.each([...scripts].filter(([, how]) => how === 'run').map(([line]) => line))(
    'npx tsx %s runs',
    async (line) => {
      const words = parseShell(line).commands[0]?.words ?? [];
      const code = await new Promise<number>((resolve) => {
        execFile(process.execPath, ['--import', 'tsx', ...words], { cwd: root, timeout: 90_000 }, (error) => {
          resolve(error === null ? 0 : typeof error.code === 'number' ? error.code : 1);
        });
      });
      expect(code, `${line} in ${relative(root, root) || '.'}`).toBe(0);
    },
    120_000,
  );
});
