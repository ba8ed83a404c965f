/**
 * Who may call: the Host header of a local server (DNS rebinding), the bearer token, the callers'
 * scopes when the server requires them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceCodes } from 'gramkit/server';
import { type Harness, harness, isProblem } from './support.js';

let h: Harness;
afterEach(async () => h?.close());

describe('security', () => {
  it('a local server answers Host: localhost, 127.0.0.1 and [::1] only', async () => {
    h = await harness();
    for (const host of ['localhost:8081', '127.0.0.1', '[::1]:9']) expect((await h.call('GET', '/healthz', { headers: { host } })).status).toBe(200);
    isProblem(await h.call('GET', '/api/v1/tools', { headers: { host: 'attacker.example:8081' } }), 403, ServiceCodes.FORBIDDEN_HOST);
    isProblem(await h.call('GET', '/healthz', { headers: { host: '127.0.0.1.nip.io' } }), 403, ServiceCodes.FORBIDDEN_HOST);
  });

  it('with a token, every route but /healthz and /openapi.json needs Authorization: Bearer', async () => {
    h = await harness({ token: 's3cret', hostHeaders: 'any' });
    expect((await h.call('GET', '/healthz', { headers: { host: 'tools.example.com' } })).status).toBe(200);
    expect((await h.call('GET', '/openapi.json')).status).toBe(200);
    const no = await h.call('GET', '/api/v1/tools');
    isProblem(no, 401, ServiceCodes.UNAUTHORIZED);
    expect(no.headers.get('www-authenticate')).toBe('Bearer');
    isProblem(await h.call('GET', '/api/v1/tools', { headers: { authorization: 'Bearer s3creT' } }), 401, ServiceCodes.UNAUTHORIZED);
    isProblem(await h.call('GET', '/nope', { headers: {} }), 401, ServiceCodes.UNAUTHORIZED);
    expect((await h.call('GET', '/api/v1/tools', { headers: { authorization: 'Bearer s3cret' } })).status).toBe(200);
  });

  it('required scopes: read_registry to read, invoke_tool to invoke, write_registry to write', async () => {
    h = await harness({ requireScopes: true });
    const missing = await h.call('GET', '/api/v1/tools');
    isProblem(missing, 403, ServiceCodes.MISSING_SCOPE);
    expect(missing.json.scope).toBe('read_registry');
    expect((await h.call('GET', '/api/v1/tools', { headers: { 'x-caller-scopes': 'read_registry' } })).status).toBe(200);
    isProblem(await h.call('POST', '/api/v1/tools/json_parse/invoke', { body: { text: '1' }, headers: { 'x-caller-scopes': 'read_registry' } }), 403, ServiceCodes.MISSING_SCOPE);
    expect((await h.call('POST', '/api/v1/tools/json_parse/invoke', { body: { text: '1' }, headers: { 'x-caller-scopes': 'read_registry, invoke_tool' } })).status).toBe(200);
    isProblem(await h.call('POST', '/api/v1/tools/discover', { headers: { 'x-caller-scopes': 'read_registry invoke_tool' } }), 403, ServiceCodes.MISSING_SCOPE);
    expect((await h.call('POST', '/api/v1/tools/discover', { headers: { 'x-caller-scopes': 'write_registry' } })).status).toBe(200);
  });
});
