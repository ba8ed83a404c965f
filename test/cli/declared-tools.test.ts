/**
 * Tools a specification file implements itself (`http: {...}`, `command: {...}`) run from the CLI
 * with no library module: `gramkit invoke` calls them, `gramkit run` gives them to an agent.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';

const root = resolve(new URL('../..', import.meta.url).pathname);
const dir = mkdtempSync(join(tmpdir(), 'gramkit-declared-'));
const SECRET = 'sk-declared-tools-secret-42';

let server: Server;
let origin = '';
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.searchParams.get('key') !== SECRET) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'bad key' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ current: { condition: { text: `Sunny in ${url.searchParams.get('q')}` } } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  writeFileSync(
    join(dir, 'weather.gram'),
    `[weather:Tool {description: "Current weather conditions of a city",
  http: {urlTemplate: "${origin}/current?q=\${city}&key=\${WEATHER_KEY}", allowedHosts: ["127.0.0.1"], extractExpr: "$.current.condition.text"}} |
  (city::Text {description: "The city"})==>(::String)
]

[weather_agent:Agent {description: "Tells the weather", instruction: "Call weather with the city the user names."} | weather]
`,
  );
});

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

describe('tools declared in the specification file', () => {
  it('gramkit invoke runs a command tool with no --library', async () => {
    const r = await cli(['invoke', 'examples/command-tools.gram', '--tool', 'word_count', '--args', '{"text": "a b c\\nd e\\n"}'], {
      cwd: root,
      env: { PATH: process.env['PATH'] },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ ok: true, value: { output: expect.stringMatching(/^\s*2\s+5\s+10\s*$/) } });
  });

  it('confines command tools to --workspace', async () => {
    const r = await cli(
      [
        'invoke',
        resolve(root, 'examples/command-tools.gram'),
        '--tool',
        'find_lines',
        '--workspace',
        dir,
        '--args',
        JSON.stringify({ pattern: 'x', file: '../../etc/passwd' }),
      ],
      {
        cwd: root,
        env: { PATH: process.env['PATH'] },
      },
    );
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error.reason).toBe('COMMAND_INVALID_PATH');
  });

  it('gramkit invoke runs an HTTP tool, its secret taken from the environment and never shown', async () => {
    const ok = await cli(['invoke', join(dir, 'weather.gram'), '--tool', 'weather', '--args', '{"city": "Paris"}'], { cwd: dir, env: { WEATHER_KEY: SECRET } });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ ok: true, value: 'Sunny in Paris' });
    expect(seen.at(-1)).toContain(`key=${SECRET}`);

    const missing = await cli(['invoke', join(dir, 'weather.gram'), '--tool', 'weather', '--args', '{"city": "Paris"}'], { cwd: dir, env: {} });
    expect(missing.code).toBe(1);
    expect(`${missing.stdout}${missing.stderr}`).toContain('WEATHER_KEY');
    expect(`${missing.stdout}${missing.stderr}`).not.toContain(SECRET);
  });

  it('gramkit run gives an agent the tools its file declares', async () => {
    const r = await cli(['run', join(dir, 'weather.gram'), 'What is the weather in Lyon', '--json'], { cwd: dir, env: { WEATHER_KEY: SECRET } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const run = (JSON.parse(r.stdout) as { value: { content: string; toolsUsed: Array<{ name: string; args: unknown; result: unknown }> } }).value;
    expect(run.toolsUsed).toEqual([expect.objectContaining({ name: 'weather', args: { city: 'Lyon' }, result: { ok: true, value: 'Sunny in Lyon' } })]);
    expect(run.content).toContain('Sunny in Lyon');
    expect(r.stdout).not.toContain(SECRET);
  });

  it('a --library module wins over the declared implementation (which is then not even built)', async () => {
    writeFileSync(
      join(dir, 'mock-weather.mjs'),
      `export default [{ name: 'weather', description: 'Current weather conditions of a city',
  schema: { type: 'object', properties: { city: { type: 'string', description: 'The city' } }, required: ['city'] },
  outputSchema: { type: 'string' }, invoke: (a) => 'Mock weather for ' + a.city }];\n`,
    );
    const r = await cli(['invoke', join(dir, 'weather.gram'), '--tool', 'weather', '--library', join(dir, 'mock-weather.mjs'), '--args', '{"city": "Oslo"}'], {
      cwd: dir,
      env: {},
    });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ ok: true, value: 'Mock weather for Oslo' });
  });
});
