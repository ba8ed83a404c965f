import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../src/cli/version.js';
import { cli } from '../support/cli.js';

describe('gramkit', () => {
  it('prints its version, the one in package.json', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(VERSION).toBe(pkg.version);
    const r = await cli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(VERSION);
  });
  it('exits 2 on usage errors', async () => {
    const r = await cli(['--no-such-option']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown option');
  });
});
