/**
 * `gramkit run --catalog` and `gramkit ab --catalog`: an agent's tools bound from a catalog at run
 * time. The agent may name catalog tools it does not define (like built-in tools) by the names
 * `/mcp` serves them under (catalog/served-names.ts: the slug for the bundle that owns it,
 * `<bundle>__<slug>` for the others; `_` may stand for `-` where no name is served as written), so a registration never takes a
 * built-in's or another bundle's name. Each is made by its implementation (HTTP, command,
 * built-in or function) as the server would make it.
 */
import type { Reportable } from '../../core/format-error.js';
import type { AgentSpecification } from '../../spec/agent-spec.js';
import type { Catalog } from '../../catalog/catalog.js';
import { agentNames, servedNameOf } from '../../catalog/served-names.js';
import { createTool } from '../../library/tool.js';
import { emptyToolLibrary, registerTool, type ToolLibrary } from '../../library/tool-library.js';
import type { ToolSpecification } from '../../spec/tool-spec.js';
import { ok, type Result } from '../../core/result.js';
import type { CliIO } from '../io.js';
import { openCliCatalog } from './catalog-store.js';

export interface AgentCatalog {
  readonly catalog: Catalog;
  /** The catalog's tools as specifications an agent may reference by name. */
  readonly specifications: ReadonlyArray<ToolSpecification>;
  /** The enabled tools that cannot run here (not served), each `slug@version: why`. */
  readonly unavailable: ReadonlyArray<string>;
  readonly close: () => Promise<void>;
}

/** Opens the catalog of `--catalog` (a directory or a Redis URL) for an agent run; its `function` tools name the tools of `functions` (`--library`). */
export const openAgentCatalog = async (io: CliIO, location: string, workspace: string, functions?: ToolLibrary): Promise<Result<AgentCatalog, Reportable>> => {
  const opened = await openCliCatalog(location, io, { workspace, ...(functions !== undefined ? { functions } : {}) });
  if (!opened.ok) return opened;
  const catalog = opened.value;
  const specs = await catalog.specifications();
  const byName = new Map(specs.map((s) => [s.name, s.spec]));
  const names = [...agentNames(specs.map((s) => s.name))];
  const unavailable: string[] = [];
  let token: string | undefined;
  do {
    const page = await catalog.listTools({ pageSize: 1000, ...(token !== undefined ? { pageToken: token } : {}) });
    if (!page.ok) break;
    for (const t of page.value.tools) if (t['available'] === false) unavailable.push(`${String(t['slug'])}@${String(t['version'])}: ${String(t['unavailableReason'] ?? 'its implementation is missing')}`);
    token = page.value.nextPageToken;
  } while (token !== undefined);
  return ok({ catalog, unavailable, specifications: names.map(([name, served]) => { const spec = byName.get(served) as ToolSpecification; return name === spec.name ? spec : { ...spec, name }; }), close: () => catalog.close() });
};

/** The tools of `agent` the catalog serves (the others are left to libraries, declarations and built-ins), under the agent's names. */
export const catalogLibrary = async (source: AgentCatalog, agent: AgentSpecification): Promise<ToolLibrary> => {
  let library = emptyToolLibrary;
  const served = new Map((await source.catalog.servedTools()).map((s) => [s.name, s.record]));
  for (const t of agent.tools) {
    const record = served.get(t.name) ?? served.get(servedNameOf(t.name));
    if (record === undefined) continue;
    const bound = await source.catalog.boundTool({ id: record.toolID });
    if (!bound.ok) continue;
    const tool = bound.value.tool;
    const named = tool.name === t.name ? tool : createTool(t.name, tool.description, tool.schema, tool.invoke, { ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}), ...(tool.limits !== undefined ? { limits: tool.limits } : {}), ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}) });
    library = registerTool(t.name, named, library);
  }
  return library;
};
