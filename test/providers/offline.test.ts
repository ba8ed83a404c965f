import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { offlineModel } from '../../src/entries/providers.js';
import { type Message, type ModelRequest, type ModelResult, type ToolDefinition } from '../../src/index.js';

const tool = (name: string, description: string, properties: Record<string, object>, required: string[] = Object.keys(properties)): ToolDefinition => ({
  name,
  description,
  inputSchema: { type: 'object', properties: properties as never, required },
});

const tools: ReadonlyArray<ToolDefinition> = [
  tool('sayHello', 'Returns a friendly greeting for the given name', { personName: { type: 'string' } }),
  tool(
    'get_weather',
    'Current weather for a city',
    { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'], default: 'celsius' } },
    ['city'],
  ),
  tool('add', 'Adds two numbers', { a: { type: 'number' }, b: { type: 'number' } }),
  tool('searchWeb', 'Search the web', { query: { type: 'string' }, limit: { type: 'integer', default: 5 }, safe: { type: 'boolean' } }, ['query']),
  tool('sendEmail', 'Sends an e-mail', { to: { type: 'string', format: 'email' }, subject: { type: 'string' }, body: { type: 'string' } }),
  tool('readFile', 'Reads a text file', { path: { type: 'string' } }),
  tool('capital_of', 'The capital city of a country', { country: { type: 'string' } }),
];

const model = offlineModel();
const ok = (r: ModelResult) => {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const call = async (text: string, extra: Partial<ModelRequest> = {}) => {
  const m = ok(await model.generate({ messages: [{ role: 'user', content: text }], tools, ...extra })).message;
  const c = m.toolCalls?.[0];
  return c === undefined ? { text: m.content } : { name: c.name, args: JSON.parse(c.arguments) as unknown };
};

describe('offline demo model: choosing a tool and its arguments', () => {
  it.each([
    ["Hello, I'm Alice", 'sayHello', { personName: 'Alice' }],
    ['hi, my name is Bob Smith', 'sayHello', { personName: 'Bob Smith' }],
    ['Please greet Ana', 'sayHello', { personName: 'Ana' }],
    ["What's the weather in New York in fahrenheit?", 'get_weather', { city: 'New York', unit: 'fahrenheit' }],
    ['weather for Paris', 'get_weather', { city: 'Paris', unit: 'celsius' }],
    ['add 2 and 3.5', 'add', { a: 2, b: 3.5 }],
    ['what is the sum of seven and twelve', 'add', { a: 7, b: 12 }],
    ['search for cheap flights to Rome', 'searchWeb', { query: 'cheap flights Rome', limit: 5 }],
    ['search "gram notation" with limit: 3, no safe search', 'searchWeb', { query: 'gram notation', limit: 3, safe: false }],
    [
      'send an email to bo@example.com with subject: "Lunch" and body: "See you at noon"',
      'sendEmail',
      { to: 'bo@example.com', subject: 'Lunch', body: 'See you at noon' },
    ],
    ['read the file docs/readme.md', 'readFile', { path: 'docs/readme.md' }],
    // the punctuation that ends the sentence is not part of the value
    ['What is the capital of France?', 'capital_of', { country: 'France' }],
    ['Tell me the capital of Japan.', 'capital_of', { country: 'Japan' }],
    ['capital of South Korea!', 'capital_of', { country: 'South Korea' }],
  ])('%s → %s', async (text, name, args) => {
    expect(await call(text)).toEqual({ name, args });
  });

  it('answers plainly that it is a demo model when no tool matches, listing its tools', async () => {
    const r = await call('Tell me a joke');
    expect(r).toEqual({ text: expect.stringContaining("I am gramkit's offline demo model, not a language model") });
    expect((r as { text: string }).text).toContain('sayHello (Returns a friendly greeting for the given name)');
  });
  it('says when the agent has no tools, and when tools are switched off', async () => {
    expect((await call('hello', { tools: [] })).text).toContain('This agent has no tools');
    expect((await call('hello', { toolChoice: 'none' })).text).toContain('Tools are switched off');
  });
  it('follows toolChoice: a named tool, or "required" (best match, else the first tool)', async () => {
    expect(await call('Tell me a joke', { toolChoice: { tool: 'searchWeb' } })).toEqual({ name: 'searchWeb', args: { query: 'Tell me a joke', limit: 5 } });
    expect((await call('Tell me a joke', { toolChoice: 'required' })).name).toBe('sayHello');
    const r = await model.generate({ messages: [{ role: 'user', content: 'x' }], tools, toolChoice: { tool: 'nope' } });
    expect(!r.ok && r.error.reason).toBe('AGENT_CONFIGURATION_ERROR');
  });
});

describe('offline demo model: answering with results', () => {
  const after = async (results: ReadonlyArray<Omit<Extract<Message, { role: 'tool' }>, 'role'>>) => {
    const messages: Message[] = [
      { role: 'user', content: 'x' },
      { role: 'assistant', content: '', toolCalls: results.map((r) => ({ id: r.toolCallId, name: r.toolName, arguments: '{}' })) },
      ...results.map((r): Message => ({ role: 'tool', ...r })),
    ];
    return ok(await model.generate({ messages, tools })).message.content;
  };
  it('gives text as it is, JSON briefly', async () => {
    expect(await after([{ toolCallId: '1', toolName: 'sayHello', content: '"Hello, Alice! Nice to meet you."' }])).toBe('Hello, Alice! Nice to meet you.');
    expect(await after([{ toolCallId: '1', toolName: 'get_weather', content: '{"temp":21,"sky":"clear","hours":[1,2]}' }])).toBe(
      'temp: 21, sky: clear, hours: [1,2]',
    );
    expect(await after([{ toolCallId: '1', toolName: 'x', content: '["a","b","c"]' }])).toBe('a, b, c');
    expect(await after([{ toolCallId: '1', toolName: 'x', content: 'not json at all' }])).toBe('not json at all');
    expect(await after([{ toolCallId: '1', toolName: 'x', content: 'null' }])).toBe('done (no result)');
    expect(await after([{ toolCallId: '1', toolName: 'x', content: '{"arguments":{"n":2},"argumentsChangedBy":"approver","result":"ok"}' }])).toBe(
      'ok (the approver changed the arguments)',
    );
    expect(
      await after([
        { toolCallId: '1', toolName: 'f', content: '{"error":{"code":"POLICY_DENIED","message":"not allowed here","retryable":false}}', isError: true },
      ]),
    ).toBe('The tool f failed (POLICY_DENIED): not allowed here. The call was not allowed.');
  });
  it('explains errors, with a hint for invalid arguments', async () => {
    const text = await after([{ toolCallId: '1', toolName: 'sayHello', content: 'TOOL_INVALID_ARGUMENTS: argument "personName" is required', isError: true }]);
    expect(text).toBe(
      'The tool sayHello failed (TOOL_INVALID_ARGUMENTS): argument "personName" is required. As a demo model I fill arguments from the words of your message; try writing the values out, for example `name: value`.',
    );
    expect(await after([{ toolCallId: '1', toolName: 'f', content: '{"code":"TOOL_TIMEOUT","message":"took 30 s"}', isError: true }])).toContain(
      '(TOOL_TIMEOUT): took 30 s.',
    );
  });
  it('answers several results one per line', async () => {
    expect(
      await after([
        { toolCallId: '1', toolName: 'a', content: '1' },
        { toolCallId: '2', toolName: 'b', content: '"two"' },
      ]),
    ).toBe('a: 1\nb: two');
  });
});

describe('offline demo model: each mention fills one parameter, and what is written out wins', () => {
  const units = ['km', 'mi', 'm', 'ft'];
  const convert = tool('convert', 'Converts a distance from one unit to another', {
    value: { type: 'number' },
    from_unit: { type: 'string', enum: units },
    to_unit: { type: 'string', enum: units },
  });
  const calculate = tool('calculate', 'Evaluates an arithmetic expression', { expression: { type: 'string' }, precision: { type: 'integer', default: 2 } }, [
    'expression',
  ]);
  const pair = tool('compare', 'Compares two units', { first: { type: 'string', enum: units }, second: { type: 'string', enum: units } });
  const on = async (t: ToolDefinition, text: string) => {
    const m = ok(await model.generate({ messages: [{ role: 'user', content: text }], tools: [t] })).message;
    return JSON.parse(m.toolCalls?.[0]?.arguments ?? 'null') as unknown;
  };

  it.each([
    ['convert 26.2 from mi to km', { value: 26.2, from_unit: 'mi', to_unit: 'km' }],
    ['convert 10 km to mi', { value: 10, from_unit: 'km', to_unit: 'mi' }],
    ['convert 3 to ft from m', { value: 3, from_unit: 'm', to_unit: 'ft' }],
    // written out: wins over the words around it
    ['convert 26.2 from mi to km, to_unit: ft', { value: 26.2, from_unit: 'mi', to_unit: 'ft' }],
    ['convert value: 5 from_unit: km to_unit: mi, not 7', { value: 5, from_unit: 'km', to_unit: 'mi' }],
  ])('%s', async (text, args) => {
    expect(await on(convert, text)).toEqual(args);
  });

  it('an enum value mentioned once fills one parameter; mentioned in order, the parameters in order', async () => {
    expect(await on(pair, 'compare km and mi')).toEqual({ first: 'km', second: 'mi' });
    expect(await on(pair, 'compare km')).toEqual({ first: 'km' });
  });

  it('the numbers of an arithmetic expression are the expression’s, not a numeric parameter’s', async () => {
    expect(await on(calculate, 'calculate 2 + 3 * 4')).toEqual({ expression: '2 + 3 * 4', precision: 2 });
    expect(await on(calculate, 'calculate (1.5+2)/7 with precision: 4')).toEqual({ expression: '(1.5+2)/7', precision: 4 });
    expect(await on(tool('add', 'Adds two numbers', { a: { type: 'number' }, b: { type: 'number' } }), 'add 2 and 3')).toEqual({ a: 2, b: 3 });
  });

  const filler = fc.array(fc.constantFrom('please', 'now', 'then', 'the', 'convert', 'quickly', 'with', 'ok'), { maxLength: 4 }).map((ws) => ws.join(' '));

  it('law: a value written out as `name: value` always fills that parameter', async () => {
    const names = ['alpha', 'beta', 'gamma', 'delta'];
    const kinds = fc.constantFrom('string', 'integer', 'number', 'enum');
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.tuple(fc.constantFrom(...names), kinds), { minLength: 1, maxLength: 4, selector: ([n]) => n }),
        fc.nat(3),
        fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/)),
        filler,
        filler,
        async (params, pick, raw, before, after) => {
          const [name, kind] = params[pick % params.length] as [string, string];
          const value =
            kind === 'enum'
              ? units[Math.abs(Number(raw.toString().length)) % units.length]
              : kind === 'string'
                ? String(raw)
                : typeof raw === 'number'
                  ? raw
                  : raw.length;
          const schema = (k: string) => (k === 'enum' ? { type: 'string', enum: units } : { type: k });
          const t = tool('convert', 'Converts things', Object.fromEntries(params.map(([n, k]) => [n, schema(k)])));
          const args = (await on(t, `${before} ${name}: ${String(value)} ${after}`.trim())) as Record<string, unknown>;
          expect(args[name]).toEqual(value);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('law: enum values each mentioned once fill distinct parameters', async () => {
    await fc.assert(
      fc.asyncProperty(fc.shuffledSubarray(units, { minLength: 1 }), filler, async (mentioned, between) => {
        const t = tool('pick', 'Picks units', {
          u1: { type: 'string', enum: units },
          u2: { type: 'string', enum: units },
          u3: { type: 'string', enum: units },
        });
        const args = (await on(t, `pick ${mentioned.join(` ${between} `)}`)) as Record<string, unknown>;
        const filled = Object.values(args);
        expect(new Set(filled).size).toBe(filled.length);
        expect(filled).toEqual(mentioned.slice(0, 3));
      }),
      { numRuns: 100 },
    );
  });
});

describe('offline demo model: laws', () => {
  it('is deterministic, never fails on any text, and only calls tools it was given with arguments as a JSON object', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 80 }), fc.subarray([...tools]), async (text, some) => {
        const request: ModelRequest = { messages: [{ role: 'user', content: text }], tools: some };
        const a = await model.generate(request);
        const b = await model.generate(request);
        expect(a).toEqual(b);
        const v = ok(a);
        for (const c of v.message.toolCalls ?? []) {
          expect(some.map((t) => t.name)).toContain(c.name);
          const args = JSON.parse(c.arguments) as unknown;
          expect(typeof args === 'object' && args !== null && !Array.isArray(args)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('offline demo model: lists and records', () => {
  const task = tool('create_task', 'Creates a task', {
    title: { type: 'string' },
    owner: { type: 'object', properties: { name: { type: 'string' }, team: { type: 'string' } }, required: ['name', 'team'] },
    tags: { type: 'array', items: { type: 'string' } },
  });
  const ask = async (text: string) => {
    const m = ok(await model.generate({ messages: [{ role: 'user', content: text }], tools: [task] })).message;
    const c = m.toolCalls?.[0];
    return c === undefined ? { text: m.content } : { name: c.name, args: JSON.parse(c.arguments) as unknown };
  };

  it('fills a list written out (`tags: a, b` or `tags: [a, b]`) and a record from its fields', async () => {
    expect(await ask('Create a task "Q3 report" with owner name: Ada, team: ops; tags: q3, work')).toEqual({
      name: 'create_task',
      args: { title: 'Q3 report', owner: { name: 'Ada', team: 'ops' }, tags: ['q3', 'work'] },
    });
    expect(await ask('Create a task "Q3 report", name: Ada, team: ops, tags: [q3, finance and work]')).toMatchObject({
      args: { tags: ['q3', 'finance', 'work'] },
    });
  });

  it('says what it could not fill instead of calling with a guess (no free text in a record, no list from loose words)', async () => {
    const r = await ask('Create a task "Q3 report" owned by Ada, tagged q3 and finance');
    expect(r).toEqual({
      text: expect.stringContaining('I would call create_task, but I could not fill owner.team (a string), tags (a list of strings) from your message.'),
    });
  });
});
