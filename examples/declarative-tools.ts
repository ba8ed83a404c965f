/**
 * Runs the tools declared in `examples/http-tools.gram` and `examples/command-tools.gram`:
 *
 *   npx tsx examples/declarative-tools.ts
 *
 * The HTTP requests go to stand-ins of the two APIs (undici's MockAgent, passed as `dispatcher`),
 * so the example runs offline and always gives the same answers; without `dispatcher` the same
 * tools call the real APIs. Command tools run in this directory (their workspace).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MockAgent } from 'undici';
import { bindAll, formatDiagnostics, invokeByName, toolNames } from 'gramkit';
import { loadDeclarativeLibrary } from 'gramkit/tools';

const here = dirname(fileURLToPath(import.meta.url));

/** Stand-ins of api.weatherapi.com and notes.example.com. */
const mockApis = (): MockAgent => {
  const agent = new MockAgent();
  agent.disableNetConnect();
  agent
    .get('https://api.weatherapi.com')
    .intercept({ path: (p) => p.startsWith('/v1/current.json?'), method: 'GET' })
    .reply<object>((req) => {
      const q = new URL(req.path, 'https://api.weatherapi.com').searchParams;
      if (q.get('key') !== 'demo-weather-key') return { statusCode: 401, data: { error: { message: 'API key is invalid' } } };
      return { statusCode: 200, data: { location: { name: q.get('q') }, current: { temp_c: 18, condition: { text: 'Partly cloudy' } } } };
    })
    .persist();
  agent
    .get('https://notes.example.com')
    .intercept({ path: '/v1/notes', method: 'POST' })
    .reply<object>((req) => {
      const note = JSON.parse(String(req.body)) as { title: string };
      return { statusCode: 201, data: { id: `note-${note.title.length}`, ...note } };
    })
    .persist();
  return agent;
};

export const main = async (log: (line: string) => void = (l) => console.log(l)): Promise<number> => {
  // secrets: in a real program, from the environment or a vault
  const secrets: Record<string, string> = { WEATHER_API_KEY: 'demo-weather-key', NOTES_TOKEN: 'demo-notes-token' };
  const dispatcher = mockApis();
  const loaded = await loadDeclarativeLibrary([join(here, 'http-tools.gram'), join(here, 'command-tools.gram')], {
    secrets: (name) => secrets[name],
    dispatcher,
    workspace: here,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', LANG: 'C.UTF-8' },
  });
  if (loaded._tag === 'Left') {
    log(formatDiagnostics(loaded.left));
    return 1;
  }
  const { library, specifications } = loaded.right;
  log(`tools: ${[...toolNames(library)].sort().join(', ')}`);
  const bound = bindAll(specifications.tools, library);
  if (bound._tag === 'Left') {
    log(JSON.stringify(bound.left));
    return 1;
  }
  const calls: ReadonlyArray<readonly [string, unknown]> = [
    ['weather', { city: 'Paris' }],
    ['create_note', { title: 'Groceries', text: 'milk, "good" bread' }],
    ['word_count', { text: 'one two three\nfour five\n' }],
    ['find_lines', { pattern: 'Tool \\{', file: 'command-tools.gram', limit: 1 }],
    ['find_lines', { pattern: 'x', file: '../package.json' }],
  ];
  for (const [name, args] of calls) log(`${name} ${JSON.stringify(args)} -> ${JSON.stringify(await invokeByName(bound.right, name, args))}`);
  await dispatcher.close();
  return 0;
};

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = await main();
