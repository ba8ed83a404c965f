/**
 * Implementation benchmarks (issue 6), as ratios against baselines run in the same process:
 * - rendering a request (URL, headers, JSON body, each value encoded for where it lands) against
 *   a naive and unsafe `replace` of the same templates (what the safety costs per call);
 * - an HTTP tool call against a local server, against undici's `request` + `JSON.parse` on the
 *   same URL (what templates, allowlist, size cap, retry loop and extraction add), target ≤ 1.5×;
 * - redacting secrets from a 50 KB result against `structuredClone` of it;
 * - `runProcess` (own process group, output cap, kill timers) against `execFile`, target ≤ 1.5×.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Dispatcher, request } from 'undici';
import { renderBody } from '../src/tools/http/body-template.js';
import { compileHttpConfig } from '../src/tools/http/http-config.js';
import { redactor } from '../src/core/redact.js';
import { renderUrl, scalarText } from '../src/tools/http/url-template.js';
import { httpTool, runProcess } from '../src/entries/tools.js';
import { safeDispatcher } from '../src/net/safe-fetch.js';
import { type ToolSpecification } from '../src/index.js';
import { formatNs, measure, ratio, report, type Measurement } from './harness.js';

/**
 * Measures `a` and `b` in alternating rounds and keeps the best round of each: on a shared machine
 * the load changes from second to second, and the fastest round is the least disturbed one.
 */
const alternate = async (
  a: readonly [string, () => unknown],
  b: readonly [string, () => unknown],
  rounds = 5,
  ms = 300,
): Promise<readonly [Measurement, Measurement]> => {
  let bestA: Measurement | undefined;
  let bestB: Measurement | undefined;
  for (let i = 0; i < rounds; i++) {
    const ma = await measure(a[0], a[1], { ms, warmupMs: i === 0 ? 200 : 20 });
    const mb = await measure(b[0], b[1], { ms, warmupMs: i === 0 ? 200 : 20 });
    if (bestA === undefined || ma.nsPerOp < bestA.nsPerOp) bestA = ma;
    if (bestB === undefined || mb.nsPerOp < bestB.nsPerOp) bestB = mb;
  }
  return [bestA!, bestB!];
};

const args: Record<string, unknown> = { city: 'São Paulo & co', units: 'metric', limit: 5, note: 'a "quoted" note\nwith a line break' };
const secret = 'sk-live-0123456789abcdef';

const render = async (): Promise<void> => {
  const source = {
    method: 'POST',
    urlTemplate: 'https://api.example.com/v1/cities/${city}/forecast?units=${units}&limit=${limit}&key=${KEY}',
    headers: { 'X-Note': 'n/${units}', Accept: 'application/json' },
    bodyTemplate: '{"city": "${city}", "limit": ${limit}, "note": "${note}"}',
  };
  const compiled = compileHttpConfig(source);
  if (compiled._tag === 'Left') throw new Error(JSON.stringify(compiled.left));
  const c = compiled.right;
  const lookup = (n: string): unknown => (n === 'KEY' ? secret : args[n]);
  const renderSafe = (): unknown => {
    const url = renderUrl(c.url, lookup);
    const headers: Record<string, string> = {};
    for (const h of c.headers) headers[h.name] = h.template.map((p) => (p.kind === 'text' ? p.text : (scalarText(lookup(p.name), ',') ?? ''))).join('');
    const body = renderBody(c.body!, lookup);
    return [url, headers, body];
  };
  const naiveSub = (t: string): string => t.replace(/\$\{(\w+)\}/g, (_, n: string) => String(lookup(n) ?? ''));
  const renderNaive = (): unknown => [
    naiveSub(source.urlTemplate),
    { 'X-Note': naiveSub(source.headers['X-Note']), Accept: 'application/json' },
    naiveSub(source.bodyTemplate),
  ];
  const [s, n] = await alternate(['render (encoded per context)', renderSafe], ['naive replace (unsafe)', renderNaive]);
  report('request rendering', [
    [n.name, formatNs(n.nsPerOp)],
    [s.name, formatNs(s.nsPerOp)],
    ['ratio', ratio(s.nsPerOp / n.nsPerOp)],
  ]);
};

const http = async (): Promise<void> => {
  const payload = JSON.stringify({
    current: { condition: { text: 'Sunny' }, temp_c: 21 },
    hourly: Array.from({ length: 24 }, (_, i) => ({ h: i, t: 20 + (i % 5) })),
  });
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(payload);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const spec: ToolSpecification = {
    name: 'weather',
    description: 'weather',
    typeSignature: '',
    schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    outputSchema: { type: 'string' },
  };
  const tool = httpTool(
    spec,
    { urlTemplate: `${origin}/current?q=\${city}&key=\${KEY}`, extractExpr: '$.current.condition.text' },
    { secrets: (n) => (n === 'KEY' ? secret : undefined) },
  );
  if (tool._tag === 'Left') throw new Error(JSON.stringify(tool.left));
  const ctx = { signal: new AbortController().signal, toolName: 'weather' };
  const dispatcher = await safeDispatcher();
  const [viaTool, raw] = await alternate(
    ['httpTool call', () => tool.right.invoke({ city: 'Paris' }, ctx)],
    [
      'undici request + JSON.parse',
      async () => {
        const r = await request(`${origin}/current?q=Paris&key=${secret}`, { dispatcher: dispatcher as unknown as Dispatcher });
        const j = (await r.body.json()) as { current: { condition: { text: string } } };
        return j.current.condition.text;
      },
    ],
  );
  server.close();
  report('HTTP tool call (local server)', [
    [raw.name, formatNs(raw.nsPerOp)],
    [viaTool.name, formatNs(viaTool.nsPerOp)],
    ['ratio', ratio(viaTool.nsPerOp / raw.nsPerOp, { max: 1.5 })],
  ]);
};

const redaction = async (): Promise<void> => {
  const result = {
    items: Array.from({ length: 400 }, (_, i) => ({ id: i, name: `item ${i}`, text: i % 50 === 0 ? `echo ${secret}` : 'lorem ipsum dolor sit amet' })),
  };
  const red = redactor([secret]);
  const [r, clone] = await alternate(['redact 50 KB result', () => red.value(result)], ['structuredClone of it', () => structuredClone(result)]);
  report('secret redaction', [
    [clone.name, formatNs(clone.nsPerOp)],
    [r.name, formatNs(r.nsPerOp)],
    ['ratio', ratio(r.nsPerOp / clone.nsPerOp)],
  ]);
};

const processes = async (): Promise<void> => {
  const env = { PATH: '/usr/bin:/bin' };
  const [ours, base] = await alternate(
    ['runProcess true', () => runProcess(['true'], { cwd: '/', env, timeoutMs: 10_000, maxOutputBytes: 1 << 20 })],
    ['execFile true', () => new Promise<void>((resolve) => execFile('true', [], { cwd: '/', env }, () => resolve()))],
  );
  report('process start and wait', [
    [base.name, formatNs(base.nsPerOp)],
    [ours.name, formatNs(ours.nsPerOp)],
    ['ratio', ratio(ours.nsPerOp / base.nsPerOp, { max: 1.5 })],
  ]);
};

export default async (): Promise<void> => {
  await render();
  await http();
  await redaction();
  await processes();
};
