import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { builtinToolsTour } from '../../../examples/builtin-tools.js';
import { customRulesTour } from '../../../examples/custom-rules.js';
import { policiesTour } from '../../../examples/policies.js';
import { bindAll } from '../../../src/index.js';
import { builtinLibrary, builtinSpecifications, probeSandbox } from '../../../src/entries/builtins.js';
import { findBwrap } from '../../../src/tools/builtin/sandbox.js';
import { parseSpecifications } from '../../../src/specification/load.js';
import { workspace } from './support.js';

const bwrap = await findBwrap(undefined);
const sandboxWorks = bwrap !== undefined && (await probeSandbox(bwrap, false, workspace().ws)).ok;

describe('examples', () => {
  it('builtin-tools: the tour prints what docs/builtins.md shows', async () => {
    const lines = await builtinToolsTour();
    expect(lines).toEqual([
      'ok {"path":"notes/todo.md","size":22}',
      'ok {"content":"- [ ] TODO write docs\\n","size":22,"modified":"…"}',
      'BUILTIN_INVALID_PATH: path "../../etc/passwd" is outside the workspace (it climbs above the root with ".."); give a path relative to the workspace root',
      'ok {"matches":[{"path":"notes/todo.md","line":1,"column":7,"match":"TODO write","lineText":"- [ ] TODO write docs"}],"truncated":false,"filesSearched":1}',
      'ok {"value":["read_file","shell"],"pretty":"[\\n  \\"read_file\\",\\n  \\"shell\\"\\n]"}',
      sandboxWorks ? 'run_code stdout: "45\\n"' : 'run_code: BUILTIN_SANDBOX_UNAVAILABLE',
      'POLICY_DENIED: shell call blocked by safety rules: no-recursive-delete-of-root (`rm -rf /` would delete "/" recursively; delete specific paths inside the workspace instead); no-rm-rf (`rm -rf /` deletes recursively without asking (rm -rf); delete specific files, or use rm -r)',
    ]);
  });

  it('policies: decisions and approvals as docs/policies.md shows', async () => {
    expect(await policiesTour()).toEqual([
      'read_file {"path":"report.txt"} → allow',
      'write_file {"path":"new.txt","content":"x"} → allow',
      'write_file {"path":"report.txt","content":"final"} → ask: write_file asks for approval of this call: it would overwrite an existing file',
      'delete_file {"path":"report.txt"} → ask: delete_file always asks for approval (it deletes files)',
      'read_file {"path":"config/.env"} → deny: read_file call blocked by safety rule: no-env-files (argument "path" ("config/.env") matches the forbidden path ".env")',
      'shell {"command":"ls -la"} → deny: shell needs the permissions proc:exec, net:read, which this run does not allow (allowed: fs:read, fs:write)',
      'overwrite report.txt: {"path":"report.txt","size":5}',
      'delete report.txt: POLICY_DENIED: delete_file was not approved: keep it',
    ]);
  });

  it('custom-rules: user rules on top of the defaults', () => {
    expect(customRulesTour()).toEqual([
      'shell {"command":"curl -s https://example.com"} → no-network-access',
      'shell {"command":"cat config/.env"} → no-env-files',
      'shell {"command":"ls -la && git status"} → allowed',
      'read_file {"path":"secrets/api-key.txt"} → no-env-files',
      'web_fetch {"url":"https://wiki.internal.example.com/"} → no-internal-urls',
      'write_file {"path":"big.txt","content":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx → small-writes',
      'shell {"command":"sudo rm -rf /"} → no-recursive-delete-of-root, no-rm-rf',
    ]);
  });

  it('builtins-agent.gram: an agent references built-in tools by name and binds to the built-in library', () => {
    const text = readFileSync(new URL('../../../examples/builtins-agent.gram', import.meta.url), 'utf8');
    const r = parseSpecifications(text, { filename: 'builtins-agent.gram', knownTools: builtinSpecifications() });
    expect(r._tag).toBe('Right');
    if (r._tag !== 'Right') return;
    const [agent] = r.right.agents;
    expect(agent?.tools.map((t) => t.name)).toEqual(['list_directory', 'text_search', 'read_file', 'write_file']);
    expect(bindAll(agent?.tools ?? [], builtinLibrary({ workspace: '.' }))._tag).toBe('Right');
  });
});
