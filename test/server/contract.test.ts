/**
 * The contract: every operation of `/openapi.json`, called on a running server (a socket, a token),
 * answers only statuses it documents, with bodies that validate (ajv, JSON Schema 2020-12) against
 * the schema the document gives for that status and content type. For each documented status there
 * is a request that yields it, or a reason it is not practical here; an operation the document adds
 * without a request for its success fails the test, so a new route must come with its example.
 *
 * The statuses every route shares are requested the same way for every operation: 400 (a query
 * parameter the route does not take), 401 (no token), 403 (a `Host` naming another server; a token
 * without the route's scope), 404 (path parameters naming nothing), 413 (a body over the limit), 415
 * (a body that is not JSON), and 405 with `Allow` for each path.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Catalog, openCatalog, openFileStore } from 'gramkit/catalog';
import { approvalQueue, type ApprovalQueue } from 'gramkit/policy';
import { ALL_SCOPES, createService, type RunningServer, startServer } from 'gramkit/server';

const TOKEN = 'contract-token-0123456789';
const READ_ONLY = 'contract-reader-0123456789';
const LIMIT = 4096;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface Sent {
  readonly method: string;
  readonly path: string;
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** `full` (default), `none`, or `reader` (a token without write, invoke or approve scopes). */
  readonly token?: 'full' | 'none' | 'reader';
}

interface Got {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

let dir: string;
let catalog: Catalog;
let approvals: ApprovalQueue;
let server: RunningServer;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let doc: any;
let ajv: InstanceType<typeof Ajv2020>;

/** One request on the socket (node:http: the `Host` header is the test's to set). */
const send = (s: Sent): Promise<Got> =>
  new Promise((resolve, reject) => {
    const url = new URL(server.url);
    const token = s.token ?? 'full';
    const headers: Record<string, string> = {
      ...(s.body !== undefined || ['POST', 'PUT', 'PATCH'].includes(s.method) ? { 'content-type': 'application/json' } : {}),
      ...(token === 'full' ? { authorization: `Bearer ${TOKEN}` } : token === 'reader' ? { authorization: `Bearer ${READ_ONLY}` } : {}),
      ...(s.headers ?? {}),
    };
    const req = httpRequest({ host: url.hostname, port: url.port, method: s.method, path: s.path, headers }, (res) => {
      // an event stream does not end: its status and headers are the answer
      if (String(res.headers['content-type']).startsWith('text/event-stream')) {
        res.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: '' });
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    if (s.body !== undefined) req.write(s.body);
    req.end();
  });

const pointer = (...parts: ReadonlyArray<string>): string => parts.map((p) => `/${p.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

// -------------------------------------------------------------------------------------------------
// the fixtures every request names
// -------------------------------------------------------------------------------------------------

const UNKNOWN_UUID = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const fixtures = { bundleID: '', toolSlug: 'contract-echo', v: '1.0.0', id: 'tool_json_parse', approvalToDeny: '', name: 'capitals' };
const unknown: Readonly<Record<string, string>> = {
  bundleID: UNKNOWN_UUID,
  toolSlug: 'no-such-tool',
  v: '9.9.9',
  id: 'tool_no_such_thing',
  name: 'no-such-experiment',
};

/** The path of an operation, its parameters filled with `values` (the fixtures by default). */
const fill = (path: string, values: Readonly<Record<string, string>>): string =>
  path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(values[name] ?? ''));

const TOOL_PATH = '/tools/bundles/{bundleID}/tools/{toolSlug}/version/{v}';
const PUT_ID = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a00';
const bundleBody = (slug: string, description = ''): string => JSON.stringify({ slug, displayName: slug, isEnabled: true, description });
const toolWrite = { description: 'Parses JSON text', type: 'builtin', impl: { builtin: 'json_parse' } };

/**
 * The request that yields each route-specific status, by `operationId status`. Requests that
 * change state run in the order of the document's paths; each builds what it needs.
 */
const specific: Readonly<Record<string, () => Sent>> = {
  'health 200': () => ({ method: 'GET', path: '/healthz', token: 'none' }),
  'openapi 200': () => ({ method: 'GET', path: '/openapi.json', token: 'none' }),
  'listBundles 200': () => ({ method: 'GET', path: `/tools/bundles?pageSize=2&bundleIDs=${fixtures.bundleID}` }),
  'createBundle 201': () => ({
    method: 'POST',
    path: '/tools/bundles',
    body: JSON.stringify({ slug: 'contract-made', displayName: 'Made', isEnabled: true, description: '' }),
  }),
  'createBundle 409': () => ({
    method: 'POST',
    path: '/tools/bundles',
    body: JSON.stringify({ slug: 'contract', displayName: 'Again', isEnabled: true, description: '' }),
  }),
  'getBundle 200': () => ({ method: 'GET', path: `/tools/bundles/${fixtures.bundleID}` }),
  'putBundle 200': () => ({ method: 'PUT', path: `/tools/bundles/${fixtures.bundleID}`, body: bundleBody('contract', 'replaced') }),
  'putBundle 201': () => ({ method: 'PUT', path: `/tools/bundles/${PUT_ID}`, body: bundleBody('contract-put') }),
  'putBundle 409': () => ({ method: 'PUT', path: '/tools/bundles/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a01', body: bundleBody('contract') }),
  'patchBundle 200': () => ({ method: 'PATCH', path: `/tools/bundles/${fixtures.bundleID}`, body: JSON.stringify({ isEnabled: true }) }),
  'deleteBundle 200': () => ({ method: 'DELETE', path: `/tools/bundles/${PUT_ID}` }),
  'getTool 200': () => ({ method: 'GET', path: fill(TOOL_PATH, fixtures) }),
  'getToolGram 200': () => ({ method: 'GET', path: `${fill(TOOL_PATH, fixtures)}/gram` }),
  'putTool 201': () => ({ method: 'PUT', path: fill(TOOL_PATH, { ...fixtures, toolSlug: 'contract-second' }), body: JSON.stringify(toolWrite) }),
  'putTool 409': () => ({ method: 'PUT', path: fill(TOOL_PATH, fixtures), body: JSON.stringify(toolWrite) }),
  'createTool 201': () => ({
    method: 'POST',
    path: `/tools/bundles/${fixtures.bundleID}/tools`,
    body: JSON.stringify({ ...toolWrite, slug: 'contract-made-tool', version: '1' }),
  }),
  'createTool 404': () => ({
    method: 'POST',
    path: `/tools/bundles/${UNKNOWN_UUID}/tools`,
    body: JSON.stringify({ ...toolWrite, slug: 'contract-lost', version: '1' }),
  }),
  'createTool 409': () => ({
    method: 'POST',
    path: `/tools/bundles/${fixtures.bundleID}/tools`,
    body: JSON.stringify({ ...toolWrite, slug: 'contract-made-tool', version: '1' }),
  }),
  'checkTool 200': () => ({
    method: 'POST',
    path: '/tools/tools/check?slug=contract-checked&version=1',
    body: JSON.stringify({ gram: '[contract-checked:Tool {description: "Checks"} | (text::String)==>(::String)]' }),
  }),
  // checking needs only the read scope, which the reader has: its 403 is the forbidden host
  'checkTool 403': () => ({
    method: 'POST',
    path: '/tools/tools/check',
    body: JSON.stringify({ gram: '[x:Tool {description: "X"} | (a::String)==>(::String)]' }),
    headers: { host: 'evil.example' },
  }),
  'patchTool 200': () => ({ method: 'PATCH', path: fill(TOOL_PATH, fixtures), body: JSON.stringify({ isEnabled: true }) }),
  'deleteTool 200': () => ({ method: 'DELETE', path: fill(TOOL_PATH, { ...fixtures, toolSlug: 'contract-second' }) }),
  'invokeTool 200': () => ({ method: 'POST', path: `${fill(TOOL_PATH, fixtures)}/invoke`, body: JSON.stringify({ args: { text: '[1, 2]' } }) }),
  'listTools 200': () => ({ method: 'GET', path: `/tools/tools?recommendedPageSize=3&createdBy=system&bundleIDs=${fixtures.bundleID}` }),
  'searchTools 200': () => ({ method: 'GET', path: '/tools/tools/search?q=echo&pageSize=3' }),
  'registryList 200': () => ({ method: 'GET', path: '/api/v1/tools?created_by=agent' }),
  'registryRegister 201': () => ({
    method: 'POST',
    path: '/api/v1/tools',
    body: JSON.stringify({ id: 'tool_contract_made', description: 'parses JSON', type: 'builtin', impl: { builtin: 'json_parse' }, created_by: 'agent' }),
  }),
  'registryRegister 409': () => ({
    method: 'POST',
    path: '/api/v1/tools',
    body: JSON.stringify({ id: 'tool_contract_made', description: 'parses JSON', type: 'builtin', impl: { builtin: 'json_parse' }, created_by: 'agent' }),
  }),
  'registryDiscover 200': () => ({ method: 'POST', path: '/api/v1/tools/discover' }),
  'registryUsage 200': () => ({ method: 'GET', path: '/api/v1/tools/usage?limit=5' }),
  'registryGet 200': () => ({ method: 'GET', path: '/api/v1/tools/tool_json_parse' }),
  'registryInvoke 200': () => ({ method: 'POST', path: '/api/v1/tools/json_parse/invoke', body: JSON.stringify({ text: '{"a": 1}' }) }),
  'registryInvoke 409': () => ({ method: 'POST', path: '/api/v1/tools/tool_contract_off/invoke', body: JSON.stringify({ text: '1' }) }),
  'registryDelete 200': () => ({ method: 'DELETE', path: '/api/v1/tools/tool_contract_made' }),
  'registryDelete 403': () => ({ method: 'DELETE', path: '/api/v1/tools/tool_json_parse' }),
  'monitorTools 200': () => ({ method: 'GET', path: '/api/tools?created_by=agent' }),
  'monitorUsage 200': () => ({ method: 'GET', path: '/api/tools/usage?limit=5' }),
  'events 200': () => ({ method: 'GET', path: '/api/v1/events?types=invoked,result' }),
  'approvalsList 200': () => ({ method: 'GET', path: '/api/v1/approvals' }),
  'approvalsApprove 404': () => ({ method: 'POST', path: `/api/v1/approvals/${UNKNOWN_UUID}/approve`, body: '{}' }),
  'approvalsApprove 200': () => ({ method: 'POST', path: `/api/v1/approvals/${fixtures.approvalToDeny}/approve`, body: '{}' }),
  'approvalsApprove 409': () => ({ method: 'POST', path: `/api/v1/approvals/${fixtures.approvalToDeny}/approve`, body: '{}' }),
  'approvalsDeny 409': () => ({ method: 'POST', path: `/api/v1/approvals/${fixtures.approvalToDeny}/deny`, body: '{}' }),
  'experimentsList 200': () => ({ method: 'GET', path: '/api/v1/experiments' }),
  'experimentsGet 200': () => ({ method: 'GET', path: '/api/v1/experiments/capitals' }),
  'experimentsGet 409': () => ({ method: 'GET', path: '/api/v1/experiments/running' }),
  'experimentsPage 200': () => ({ method: 'GET', path: '/api/v1/experiments/capitals/report.html' }),
  'experimentsPage 409': () => ({ method: 'GET', path: '/api/v1/experiments/running/report.html' }),
};

/** Documented statuses no request here yields, and why. */
const impractical: Readonly<Record<string, string>> = {
  503: 'the store does not answer: a file store always does (test/server/redis-outage.test.ts stops a Redis under a server)',
  'invokeTool 409': 'a disabled tool: shown by registryInvoke 409, the same catalog call',
  'patchBundle 409': 'a deleted bundle cannot be patched: routes.test.ts; not repeated here (it would need its own bundle)',
  'deleteBundle 409': 'the same: routes.test.ts',
  'patchTool 409': 'a tool in a disabled bundle: routes.test.ts',
  'deleteTool 409': 'the same: routes.test.ts',
  'approvalsDeny 200': 'one waiting call is approved (approvalsApprove 200); approvals.test.ts denies',
};

// -------------------------------------------------------------------------------------------------
// setup
// -------------------------------------------------------------------------------------------------

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gramkit-contract-'));
  writeFileSync(join(dir, 'notes.txt'), 'original\n');
  // the experiments: one finished (gramkit ab --out), one still running (its first runs)
  const experiments = join(dir, 'experiments');
  mkdirSync(experiments);
  const results = readFileSync(new URL('../fixtures/experiments/capitals.jsonl', import.meta.url), 'utf8');
  writeFileSync(join(experiments, 'capitals.jsonl'), results);
  writeFileSync(join(experiments, 'running.jsonl'), `${results.split('\n').slice(0, 4).join('\n')}\n`);
  approvals = approvalQueue();
  const opened = await openCatalog({ store: openFileStore(join(dir, 'data')), workspace: dir, allowHosts: [], approver: approvals.ask });
  if (!opened.ok) throw new Error(opened.error.message);
  catalog = opened.value;
  const service = createService({
    catalog,
    approvals,
    experiments: join(dir, 'experiments'),
    maxBodyBytes: LIMIT,
    tokens: [
      { name: 'full', token: TOKEN, scopes: ALL_SCOPES },
      { name: 'reader', token: READ_ONLY, scopes: ['read_registry'] },
    ],
  });
  server = await startServer(service, { host: '127.0.0.1', port: 0 });
  doc = JSON.parse((await send({ method: 'GET', path: '/openapi.json', token: 'none' })).text);
  ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(doc, 'openapi.json');
  // the fixtures: a bundle with a tool, a disabled registry tool, a call waiting for approval
  const bundle = await send({
    method: 'POST',
    path: '/tools/bundles',
    body: JSON.stringify({ slug: 'contract', displayName: 'Contract', isEnabled: true, description: '' }),
  });
  fixtures.bundleID = JSON.parse(bundle.text).bundleID;
  const tool = await send({ method: 'PUT', path: fill(TOOL_PATH, fixtures), body: JSON.stringify(toolWrite) });
  expect(tool.status, tool.text).toBe(201);
  const off = await send({
    method: 'POST',
    path: '/api/v1/tools',
    body: JSON.stringify({ id: 'tool_contract_off', description: 'off', type: 'builtin', impl: { builtin: 'json_parse' } }),
  });
  expect(off.status, off.text).toBe(201);
  const created = JSON.parse(off.text) as { bundle_id: string; slug: string; version: string };
  expect(
    (
      await send({
        method: 'PATCH',
        path: fill(TOOL_PATH, { bundleID: created.bundle_id, toolSlug: created.slug, v: created.version }),
        body: '{"isEnabled": false}',
      })
    ).status,
  ).toBe(200);
  // a call that waits for a person (an overwrite), decided by the approval routes
  void send({ method: 'POST', path: '/api/v1/tools/write_file/invoke', body: JSON.stringify({ path: 'notes.txt', content: 'changed' }) }).catch(
    () => undefined,
  );
  for (let i = 0; i < 200 && approvals.pending().length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  fixtures.approvalToDeny = approvals.pending()[0]?.id ?? '';
  expect(fixtures.approvalToDeny).not.toBe('');
});

afterAll(async () => {
  approvals?.close();
  await server?.close();
  await catalog?.close();
  rmSync(dir, { recursive: true, force: true });
});

// -------------------------------------------------------------------------------------------------
// checking an answer against the document
// -------------------------------------------------------------------------------------------------

interface Operation {
  readonly path: string;
  readonly method: (typeof METHODS)[number];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly op: any;
}

const operations = (): ReadonlyArray<Operation> =>
  Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
    METHODS.flatMap((method) => (item[method] !== undefined ? [{ path, method, op: item[method] }] : [])),
  );

/** The pointer of a documented response (a shared one followed to `components.responses`). */
const responsePointer = (o: Operation, status: number): string | undefined => {
  const r = o.op.responses[String(status)];
  if (r === undefined) return undefined;
  return typeof r.$ref === 'string' ? (r.$ref as string).slice(1) : pointer('paths', o.path, o.method, 'responses', String(status));
};

const resolve = (p: string): { content?: Record<string, { schema?: unknown }> } =>
  p
    .split('/')
    .slice(1)
    .reduce((a, k) => a[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);

/** The answer is documented for the operation, its content type is, and its body validates. */
const conforms = (o: Operation, got: Got, what: string): void => {
  const where = responsePointer(o, got.status);
  if (where === undefined)
    throw new Error(
      `${o.op.operationId} (${what}): status ${got.status} is not documented (${Object.keys(o.op.responses).join(', ')}): ${got.text.slice(0, 300)}`,
    );
  const type =
    String(got.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim() ?? '';
  const content = resolve(where).content ?? {};
  expect(Object.keys(content), `${o.op.operationId} ${got.status} (${what}): content type`).toContain(type);
  if (type === 'application/json' || type === 'application/problem+json') {
    const validate = ajv.getSchema(`openapi.json#${where}${pointer('content', type, 'schema')}`);
    if (validate === undefined) throw new Error(`no schema at ${where}`);
    const body: unknown = JSON.parse(got.text);
    expect(validate(body), `${o.op.operationId} ${got.status} (${what}): ${ajv.errorsText(validate.errors)}\n${got.text.slice(0, 400)}`).toBe(true);
  }
};

/** A valid request of the operation (its success request, or the fixtures in its path). */
const valid = (o: Operation): Sent => {
  const success = Object.keys(o.op.responses).find((s) => Number(s) < 300);
  const recipe = specific[`${o.op.operationId} ${success}`];
  return recipe !== undefined ? recipe() : { method: o.method.toUpperCase(), path: fill(o.path, fixtures) };
};

const withQuery = (path: string, extra: string): string => `${path}${path.includes('?') ? '&' : '?'}${extra}`;

/** The request that yields a shared status for an operation, or `undefined` when it is not shared. */
const shared = (o: Operation, status: number): Sent | undefined => {
  const base = valid(o);
  switch (status) {
    case 400:
      return { ...base, path: withQuery(base.path, 'contractUnknown=1') };
    case 401:
      return { ...base, token: 'none' };
    case 403:
      return o.op.security?.length === 0
        ? { ...base, headers: { host: 'evil.example' } }
        : { ...base, token: 'reader', ...(o.method === 'get' ? { headers: { host: 'evil.example' } } : {}) };
    case 404:
      return { ...base, path: fill(o.path, unknown) };
    case 413:
      return { ...base, body: JSON.stringify({ padding: 'x'.repeat(LIMIT) }) };
    case 415:
      return { ...base, body: '{}', headers: { 'content-type': 'text/plain' } };
    default:
      return undefined;
  }
};

// -------------------------------------------------------------------------------------------------
// the contract
// -------------------------------------------------------------------------------------------------

describe('the contract of /openapi.json, on a running server', () => {
  it('the validator is live: a problem without its code, a bundle list that is not one, fail', () => {
    const problem = ajv.getSchema(`openapi.json#${pointer('components', 'responses', 'BadRequest', 'content', 'application/problem+json', 'schema')}`);
    expect(problem?.({ type: 't', title: 't', status: 400, detail: 'd' })).toBe(false);
    const list = ajv.getSchema(`openapi.json#${pointer('paths', '/tools/bundles', 'get', 'responses', '200', 'content', 'application/json', 'schema')}`);
    expect(list?.({ bundles: 'none' })).toBe(false);
  });

  it('every operation has a request for its success', () => {
    for (const o of operations()) {
      const success = Object.keys(o.op.responses).filter((s) => Number(s) < 300);
      expect(success.length, o.op.operationId).toBeGreaterThan(0);
      for (const s of success)
        expect(specific[`${o.op.operationId} ${s}`] ?? impractical[`${o.op.operationId} ${s}`], `${o.op.operationId} ${s}: add its request`).toBeDefined();
    }
  });

  it('each documented status of each operation: a request yields it, with a body its schema accepts', async () => {
    const missing: string[] = [];
    for (const o of operations()) {
      for (const status of Object.keys(o.op.responses)
        .map(Number)
        .sort((a, b) => a - b)) {
        const id = `${o.op.operationId} ${status}`;
        if (impractical[id] !== undefined || impractical[String(status)] !== undefined) continue;
        const sent = specific[id]?.() ?? shared(o, status);
        if (sent === undefined) {
          missing.push(id);
          continue;
        }
        const got = await send(sent);
        expect(got.status, `${id}: ${sent.method} ${sent.path} → ${got.text.slice(0, 300)}`).toBe(status);
        conforms(o, got, `${sent.method} ${sent.path}`);
      }
    }
    expect(missing, 'documented statuses with no request and no reason').toEqual([]);
  });

  it('a malformed query is a documented 400 naming the parameter, on every operation that takes one', async () => {
    const cases: ReadonlyArray<readonly [string, string, string]> = [
      ['listBundles', '/tools/bundles?bundleIDs=not-a-uuid', 'bundleIDs'],
      ['listTools', '/tools/tools?pageSize=3', 'pageSize'],
      ['listTools', '/tools/tools?createdBy=robot', 'createdBy'],
      ['searchTools', '/tools/tools/search?pageSize=0', 'pageSize'],
      ['registryList', '/api/v1/tools?created_by=someone', 'created_by'],
      ['registryUsage', '/api/v1/tools/usage?limit=ten', 'limit'],
      ['events', '/api/v1/events?types=nothing', 'types'],
      ['listBundles', '/tools/bundles?includeDisabled=yes&bundleIDs=1', 'includeDisabled'],
    ];
    for (const [operationId, path, name] of cases) {
      const o = operations().find((x) => x.op.operationId === operationId) as Operation;
      const got = await send({ method: 'GET', path });
      expect(got.status, `${path}: ${got.text}`).toBe(400);
      conforms(o, got, path);
      const problem = JSON.parse(got.text);
      expect(problem.reason).toBe('SERVICE_INVALID_REQUEST');
      expect(
        problem.invalidParams.map((p: { name: string }) => p.name),
        path,
      ).toContain(name);
      expect(problem.detail).toContain(name);
    }
  });

  it('every other method on every path is a 405 whose Allow lists the documented methods, with the shared problem', async () => {
    const validate = ajv.getSchema(`openapi.json#${pointer('components', 'responses', 'MethodNotAllowed', 'content', 'application/problem+json', 'schema')}`);
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      const documented = METHODS.filter((m) => item[m] !== undefined).map((m) => m.toUpperCase());
      const other = ['DELETE', 'PUT', 'PATCH', 'POST', 'GET'].find((m) => !documented.includes(m)) as string;
      const got = await send({ method: other, path: fill(path, fixtures), ...(other === 'GET' || other === 'DELETE' ? {} : { body: '{}' }) });
      expect(got.status, `${other} ${path}`).toBe(405);
      const allow = String(got.headers['allow']).split(', ');
      expect(new Set(allow), path).toEqual(new Set([...documented, ...(documented.includes('GET') ? ['HEAD'] : [])]));
      expect(validate?.(JSON.parse(got.text)), got.text).toBe(true);
    }
  });
});
