/**
 * `gramkit serve --experiments DIR` (`createService({experiments})`): the results files `gramkit ab
 * --out NAME.jsonl` wrote, listed, each one's JSON report (the one `gramkit ab --json` printed) and
 * its page (with its Content-Security-Policy as a header); the same token and scope as every
 * route that reads; names confined to the directory (`..`, absolute paths, symbolic links: attack
 * tests); an experiment still being written reads consistently (whole runs, no report until its
 * line is whole).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { type Harness, harness, isProblem } from './support.js';

const TOKEN = 'experiments-token-0123456789';
const NO_SCOPE = 'experiments-invoker-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };
const ARGS = [
  'ab',
  'examples/capitalsAgent.gram',
  '-l',
  'examples/ab/fast-library.ts',
  '-l',
  'examples/capitals-1950-library.ts',
  '-i',
  'examples/capitals-inputs.jsonl',
  '--runs',
  '2',
];

describe('the experiments of gramkit serve --experiments', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'gramkit-serve-experiments-'));
  const dir = join(tmp, 'experiments');
  const outside = join(tmp, 'outside');
  let h: Harness;
  // what gramkit ab --json printed for the experiment
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let printed: any;

  beforeAll(async () => {
    mkdirSync(dir);
    mkdirSync(outside);
    const r = await cli([...ARGS, '--out', join(dir, 'capitals.jsonl'), '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const { columns: _columns, ...report } = JSON.parse(r.stdout);
    printed = report;
    // a secret experiment outside the directory, and ways to name it from inside
    copyFileSync(join(dir, 'capitals.jsonl'), join(outside, 'secret.jsonl'));
    symlinkSync(join(outside, 'secret.jsonl'), join(dir, 'linked.jsonl'));
    symlinkSync(outside, join(dir, 'sub'));
    writeFileSync(join(dir, 'notes.txt'), 'not an experiment\n');
    writeFileSync(join(dir, 'other.jsonl'), '{"not": "a results file"}\n');
    h = await harness({
      experiments: dir,
      tokens: [
        { name: 'full', token: TOKEN, scopes: ['read_registry'] },
        { name: 'invoker', token: NO_SCOPE, scopes: ['invoke_tool'] },
      ],
    });
  }, 120_000);

  afterAll(async () => {
    await h?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('lists the finished experiment, and serves the report gramkit ab printed, runs included', async () => {
    const list = await h.call('GET', '/api/v1/experiments', { headers: auth });
    expect(list.status, list.text).toBe(200);
    const variants = ['fast-library', 'capitals-1950-library'];
    expect(list.json.enabled).toBe(true);
    expect(list.json.experiments).toEqual([
      {
        name: 'capitals',
        agent: 'capitals_agent',
        variants,
        runs: 28,
        total: 28,
        finished: true,
        startedAt: printed.startedAt,
        modifiedAt: expect.any(String),
      },
    ]);
    const got = await h.call('GET', '/api/v1/experiments/capitals', { headers: auth });
    expect(got.status, got.text).toBe(200);
    expect(got.json).toEqual(printed);
    expect(got.json.results).toHaveLength(28);
  });

  it('serves the page --report writes, with its policy as a header: no script, no request', async () => {
    const page = await h.call('GET', '/api/v1/experiments/capitals/report.html', { headers: auth });
    expect(page.status, page.text).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'; style-src 'unsafe-inline'");
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    // the page ab --report writes for the same file
    const file = join(tmp, 'report.html');
    const again = await cli([...ARGS, '--out', join(dir, 'capitals.jsonl'), '--resume', '--report', file]);
    expect(again.code, again.stderr).toBe(0);
    const written = readFileSync(file, 'utf8');
    // the resumed run appended a report (the last one counts): the same numbers, another start and duration
    const served = (await h.call('GET', '/api/v1/experiments/capitals/report.html', { headers: auth })).text;
    const timeless = (html: string): string => html.replace(/started [^,]*, [\d.]+ s\./, 'started …');
    expect(timeless(served)).toBe(timeless(written));
    expect(served).not.toMatch(/<script|<link|<img|<iframe|url\(/i);
  }, 60_000);

  it('needs the token and the read scope, as every route that reads', async () => {
    for (const path of ['/api/v1/experiments', '/api/v1/experiments/capitals', '/api/v1/experiments/capitals/report.html']) {
      isProblem(await h.call('GET', path), 401, 'SERVICE_UNAUTHORIZED');
      isProblem(await h.call('GET', path, { headers: { authorization: `Bearer ${NO_SCOPE}` } }), 403, 'SERVICE_MISSING_SCOPE');
    }
  });

  it('attack: a name reaches no file outside the directory: .., an absolute path, a link to a file or a folder outside', async () => {
    const names = [
      '..%2Foutside%2Fsecret',
      '..%2F..%2F..%2F..%2F..%2F..%2Fetc%2Fpasswd',
      encodeURIComponent(join(outside, 'secret')),
      'linked',
      'sub%2Fsecret',
      'notes.txt',
      'other',
      'capitals.jsonl',
    ];
    for (const name of names) {
      for (const suffix of ['', '/report.html']) {
        const got = await h.call('GET', `/api/v1/experiments/${name}${suffix}`, { headers: auth });
        isProblem(got, 404, 'SERVICE_EXPERIMENT_NOT_FOUND');
        expect(got.text).not.toContain('capitals_agent');
      }
    }
    const listed = (await h.call('GET', '/api/v1/experiments', { headers: auth })).json.experiments.map((e: { name: string }) => e.name);
    expect(listed).toEqual(['capitals']);
  });

  it('an experiment still being written: whole runs only, and no report until its line is whole', async () => {
    const lines = readFileSync(join(dir, 'capitals.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    const header = lines[0] as string;
    const runs = lines.slice(1).filter((l) => !l.includes('"gramkit-experiment-report"'));
    const report = lines.find((l) => l.includes('"gramkit-experiment-report"')) as string;
    // three runs, and a fourth being written
    writeFileSync(join(dir, 'running.jsonl'), `${[header, ...runs.slice(0, 3)].join('\n')}\n${(runs[3] as string).slice(0, 40)}`);
    // every run, and the report being written
    writeFileSync(join(dir, 'ending.jsonl'), `${[header, ...runs].join('\n')}\n${report.slice(0, report.length - 10)}`);
    const list = (await h.call('GET', '/api/v1/experiments', { headers: auth })).json.experiments;
    const entry = (name: string): { runs: number; total: number; finished: boolean } => list.find((e: { name: string }) => e.name === name);
    expect(entry('running')).toMatchObject({ runs: 3, total: 28, finished: false });
    expect(entry('ending')).toMatchObject({ runs: 28, total: 28, finished: false });
    expect(entry('running')).not.toHaveProperty('startedAt');
    for (const [name, done] of [
      ['running', 3],
      ['ending', 28],
    ] as const) {
      const got = await h.call('GET', `/api/v1/experiments/${name}`, { headers: auth });
      isProblem(got, 409, 'SERVICE_EXPERIMENT_UNFINISHED');
      expect(got.json).toMatchObject({ runs: done, total: 28 });
      isProblem(await h.call('GET', `/api/v1/experiments/${name}/report.html`, { headers: auth }), 409, 'SERVICE_EXPERIMENT_UNFINISHED');
    }
    // the report's line is whole: the experiment is finished
    writeFileSync(join(dir, 'ending.jsonl'), `${[header, ...runs, report].join('\n')}\n`);
    const ended = await h.call('GET', '/api/v1/experiments/ending', { headers: auth });
    expect(ended.status).toBe(200);
    expect(ended.json.summaries).toEqual(printed.summaries);
    rmSync(join(dir, 'running.jsonl'));
    rmSync(join(dir, 'ending.jsonl'));
  });

  it('pages the list (pageSize, pageToken): every experiment once, newest first; a foreign or unknown parameter is a 400 naming it', async () => {
    const results = readFileSync(join(dir, 'capitals.jsonl'), 'utf8');
    const names = ['page-a', 'page-b', 'page-c', 'page-d'];
    names.forEach((name, i) => {
      writeFileSync(join(dir, `${name}.jsonl`), results);
      // distinct times, page-a the newest; page-c and page-d share one (then by name)
      const t = new Date(Date.UTC(2031, 0, 10 - Math.min(i, 2)));
      utimesSync(join(dir, `${name}.jsonl`), t, t);
    });
    try {
      const whole = (await h.call('GET', '/api/v1/experiments', { headers: auth })).json;
      expect(whole.nextPageToken).toBeUndefined();
      const order = whole.experiments.map((e: { name: string }) => e.name);
      expect(order.slice(0, 4)).toEqual(names);
      const seen: string[] = [];
      let token: string | undefined;
      let pages = 0;
      do {
        const page = await h.call('GET', `/api/v1/experiments?pageSize=3${token !== undefined ? `&pageToken=${token}` : ''}`, { headers: auth });
        expect(page.status, page.text).toBe(200);
        expect(page.json.experiments.length).toBeLessThanOrEqual(3);
        expect(page.json.experiments.length).toBeGreaterThan(0);
        seen.push(...page.json.experiments.map((e: { name: string }) => e.name));
        token = page.json.nextPageToken;
        pages++;
      } while (token !== undefined && pages < 10);
      expect(seen).toEqual(order);
      expect(pages).toBe(Math.ceil(order.length / 3));
      // what the route does not take, or takes otherwise, is refused by name
      for (const [query, name] of [
        ['?page=2', 'page'],
        ['?pageSize=0', 'pageSize'],
        ['?pageSize=many', 'pageSize'],
        ['?pageToken=not-a-token', 'pageToken'],
        [`?pageToken=${Buffer.from(JSON.stringify({ v: 1, f: 'elsewhere', a: 'x' })).toString('base64url')}`, 'pageToken'],
      ] as const) {
        const got = await h.call('GET', `/api/v1/experiments${query}`, { headers: auth });
        isProblem(got, 400, 'SERVICE_INVALID_REQUEST');
        expect(got.json.invalidParams.map((p: { name: string }) => p.name)).toEqual([name]);
      }
    } finally {
      for (const name of names) rmSync(join(dir, `${name}.jsonl`));
    }
  });

  it('a file read once is read again when its inode, size or modification time changes (and only the list entry is kept)', async () => {
    const lines = readFileSync(join(dir, 'capitals.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    const header = lines[0] as string;
    const runs = lines.slice(1).filter((l) => !l.includes('"gramkit-experiment-report"'));
    const file = join(dir, 'growing.jsonl');
    const t = new Date(Date.UTC(2030, 5, 1));
    const entry = async (): Promise<{ runs: number }> =>
      (await h.call('GET', '/api/v1/experiments', { headers: auth })).json.experiments.find((e: { name: string }) => e.name === 'growing');
    const write = (body: ReadonlyArray<string>, at: Date): void => {
      writeFileSync(file, `${[header, ...body].join('\n')}\n`);
      utimesSync(file, at, at);
    };
    try {
      write([runs[0] as string], t);
      expect(await entry()).toMatchObject({ runs: 1 });
      // more runs: another size
      write(runs.slice(0, 3), t);
      expect(await entry()).toMatchObject({ runs: 3 });
      // the same size, another modification time: the new content (one run, and a padding line that is no run)
      const one = `${header}\n${runs[0] as string}\n`;
      const same = readFileSync(file).length;
      writeFileSync(file, `${one}${' '.repeat(same - Buffer.byteLength(one) - 1)}\n`);
      utimesSync(file, new Date(Date.UTC(2030, 5, 2)), new Date(Date.UTC(2030, 5, 2)));
      expect(readFileSync(file).length).toBe(same);
      expect(await entry()).toMatchObject({ runs: 1 });
      // the same size and time, another file moved into its place (another inode): one run, padded
      write(runs.slice(0, 2), t);
      expect(await entry()).toMatchObject({ runs: 2 });
      const size = readFileSync(file).length;
      const other = join(tmp, 'other-growing.jsonl');
      writeFileSync(other, `${one}${' '.repeat(size - Buffer.byteLength(one) - 1)}\n`);
      utimesSync(other, t, t);
      renameSync(other, file);
      expect(readFileSync(file).length).toBe(size);
      expect(await entry()).toMatchObject({ runs: 1 });
      isProblem(await h.call('GET', '/api/v1/experiments/growing', { headers: auth }), 409, 'SERVICE_EXPERIMENT_UNFINISHED');
    } finally {
      rmSync(file, { force: true });
    }
  });

  it('a server without --experiments shows none, and says so', async () => {
    const bare = await harness({});
    try {
      expect((await bare.call('GET', '/api/v1/experiments')).json).toEqual({ experiments: [], enabled: false });
      isProblem(await bare.call('GET', '/api/v1/experiments/capitals'), 404, 'SERVICE_EXPERIMENT_NOT_FOUND');
    } finally {
      await bare.close();
    }
  });
});
