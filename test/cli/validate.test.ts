import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const run = (argv: string[], stdin?: string) => cli(argv, { cwd: ROOT, ...(stdin !== undefined ? { stdin } : {}) });

describe('gramkit validate', () => {
  it('exits 0 for valid arguments', async () => {
    const r = await run(['validate', 'examples/tools.gram', '--tool', 'get_weather', '--args', '{"city": "Paris", "days": 3}']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('valid: the arguments of "get_weather" match its specification\n');
  });

  it('exits 1 with the errors', async () => {
    const r = await run(['validate', 'examples/tools.gram', '--tool', 'get_weather', '--args', '{"days": "ten", "units": "kelvin"}']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        'argument "city" is required [SPEC_ARG_REQUIRED]',
        'argument "units" must be one of "metric", "imperial", got "kelvin" [SPEC_ARG_ENUM]',
        'argument "days" must be an integer, got "ten" [SPEC_ARG_TYPE]',
        '',
      ].join('\n'),
    );
  });

  it('prints JSON with --json (defaults filled in), and reads the arguments from stdin', async () => {
    const r = await run(['validate', 'examples/tools.gram', '--tool', 'get_weather', '--args', '-', '--json'], '{"city": "Oslo"}');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ tool: 'get_weather', valid: true, args: { city: 'Oslo', units: 'metric', days: 1 } });
    const notJson = await run(['validate', 'examples/tools.gram', '--tool', 'get_weather', '--args', '{city}']);
    expect(notJson.code).toBe(1);
    expect(notJson.stdout).toContain('the arguments are not JSON');
  });

  it('checks a log of calls, one JSON result per line', async () => {
    const r = await run(['validate', 'examples/tools.gram', '--calls', 'examples/spec/calls.jsonl']);
    expect(r.code).toBe(1);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l['line'], l['tool'], l['valid']])).toEqual([
      [1, 'get_weather', true],
      [2, 'get_weather', false],
      [3, 'create_event', true],
      [4, 'create_event', false],
      [5, 'book_flight', false],
    ]);
    expect(lines[1]?.['issues']).toEqual([
      { path: 'units', code: 'SPEC_ARG_ENUM', message: 'argument "units" must be one of "metric", "imperial", got "kelvin"' },
    ]);
    expect((lines[3]?.['issues'] as Array<{ code: string }>).map((i) => i.code).sort()).toEqual(['SPEC_ARG_FORMAT', 'SPEC_ARG_UNKNOWN']);
    expect(lines[4]?.['error']).toBe('no tool named "book_flight" in the specification');
    expect(r.stderr).toBe('2 of 5 calls valid\n');
  });

  it('reports lines that are not JSON, and exits 0 when every call is valid', async () => {
    const bad = await run(['validate', 'examples/tools.gram', '--calls', '-'], '{"tool": "sayHello", "args": {"name": "Ada"}}\nnot json\n');
    expect(bad.stdout.split('\n')[1]).toContain('"error":"not JSON');
    const good = await run(
      ['validate', 'examples/tools.gram', '--calls', '-', '--tool', 'sayHello'],
      '{"args": {"name": "Ada"}}\n\n{"args": {"name": "Bo"}}\n',
    );
    expect(good.code).toBe(0);
    expect(good.stderr).toBe('2 of 2 calls valid\n');
  });

  it('exits 2 on usage errors', async () => {
    expect((await run(['validate', 'examples/tools.gram'])).code).toBe(2);
    expect((await run(['validate', 'examples/tools.gram', '--args', '{}'])).code).toBe(2);
  });
});
