/**
 * `gramkit run --catalog` and `gramkit ab --catalog`: an agent's tools bound from a catalog at run
 * time. The agent may name catalog tools it does not define (like built-in tools) by the names
 * `/mcp` serves them under (catalog/served-names.ts: the slug for the bundle that owns it,
 * `<bundle>__<slug>` for the others; `_` may stand for `-` where no name is served as written), so a registration never takes a
 * built-in's or another bundle's name. Each is made by its implementation (HTTP, command,
 * built-in or function) as the server would make it. An enabled tool that cannot run here (a
 * function no `--library` implements, a host outside the list) is not served, but an agent that
 * names it still binds, under its slug: each call fails with the catalog's reason
 * (`CATALOG_TOOL_UNAVAILABLE`), which the model reads, after the warning the run prints.
 */
import type { Reportable } from '../../core/format-error.js';
import type { AgentSpecification } from '../../specification/agent-spec.js';
import type { Catalog } from '../../catalog/catalog.js';
import { agentNames, servedNameOf } from '../../catalog/served-names.js';
import { ToolFailure } from '../../library/result.js';
import { createTool, type Tool } from '../../library/tool.js';
import { checkedValue } from '../../core/either.js';
import { checkToolSpecification } from '../../specification/tool-spec.js';
import type { CatalogError } from '../../catalog/result.js';
import { emptyToolLibrary, registerTool, type ToolLibrary } from '../../library/tool-library.js';
import type { ToolSpecification } from '../../specification/tool-spec.js';
import { ok, type Result } from '../../core/result.js';
import type { CliIO } from '../io.js';
import { openCliCatalog } from './catalog-store.js';

export interface AgentCatalog {
  readonly catalog: Catalog;
  /** The catalog's tools as specifications an agent may reference by name. */
  readonly specifications: ReadonlyArray<ToolSpecification>;
  /** The enabled tools that cannot run here (not served), each `slug@version: why`. */
  readonly unavailable: ReadonlyArray<string>;
  /** Those tools by their slug (when no served tool has it): an agent naming one binds a tool that fails with the reason. */
  readonly unavailableTools: ReadonlyMap<string, string>;
  readonly close: () => Promise<void>;
}

/** Opens the catalog of `--catalog` (a directory or a Redis URL) for an agent run; its `function` tools name the tools of `functions` (`--library`). */
export const openAgentCatalog = async (io: CliIO, location: string, workspace: string, functions?: ToolLibrary): Promise<Result<AgentCatalog, Reportable>> => {
  const opened = await openCliCatalog(location, io, { workspace, ...(functions !== undefined ? { functions } : {}) });
  if (!opened.ok) return opened;
  const catalog = opened.value;
  const specs = await catalog.specifications();
  const byName = new Map(specs.map((s) => [s.name, s.spec]));
  const unavailable: string[] = [];
  const unavailableTools = new Map<string, string>();
  let token: string | undefined;
  do {
    const page = await catalog.listTools({ pageSize: 1000, ...(token !== undefined ? { pageToken: token } : {}) });
    if (!page.ok) break;
    for (const t of page.value.tools) {
      if (t['available'] !== false) continue;
      const slug = String(t['slug']);
      unavailable.push(`${slug}@${String(t['version'])}: ${String(t['unavailableReason'] ?? 'its implementation is missing')}`);
      // its specification, so the agent file binds; the first of a slug (the list's order), never over a served name
      const spec = checkedValue(checkToolSpecification(slug, String(t['description'] ?? ''), String(t['signature'] ?? '')));
      if (spec === undefined || byName.has(slug) || unavailableTools.has(slug)) continue;
      byName.set(slug, spec);
      unavailableTools.set(slug, String(t['toolID']));
    }
    token = page.value.nextPageToken;
  } while (token !== undefined);
  const names = [...agentNames([...byName.keys()])];
  const specifications = names.map(([name, served]) => {
    const spec = byName.get(served) as ToolSpecification;
    return name === spec.name ? spec : { ...spec, name };
  });
  return ok({ catalog, unavailable, unavailableTools, specifications, close: () => catalog.close() });
};

/** A tool of the agent's specification whose every call fails with the catalog's reason it cannot run here. */
const unavailableTool = (spec: ToolSpecification, why: CatalogError): Tool =>
  createTool(
    spec.name,
    spec.description,
    spec.schema,
    () => {
      throw new ToolFailure(why.reason, why.message, why.details !== undefined ? { details: why.details } : {});
    },
    { outputSchema: spec.outputSchema },
  );

/** The tools of `agent` the catalog serves (the others are left to libraries, declarations and built-ins), under the agent's names. */
export const catalogLibrary = async (source: AgentCatalog, agent: AgentSpecification): Promise<ToolLibrary> => {
  let library = emptyToolLibrary;
  const served = new Map((await source.catalog.servedTools()).map((s) => [s.name, s.record]));
  for (const t of agent.tools) {
    const record = served.get(t.name) ?? served.get(servedNameOf(t.name));
    const id = record?.toolID ?? source.unavailableTools.get(t.name) ?? source.unavailableTools.get(servedNameOf(t.name));
    if (id === undefined) continue;
    const bound = await source.catalog.boundTool({ id });
    if (!bound.ok) {
      library = registerTool(t.name, unavailableTool(t, bound.error), library);
      continue;
    }
    const tool = bound.value.tool;
    const named =
      tool.name === t.name
        ? tool
        : createTool(t.name, tool.description, tool.schema, tool.invoke, {
            ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
            ...(tool.limits !== undefined ? { limits: tool.limits } : {}),
            ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
          });
    library = registerTool(t.name, named, library);
  }
  return library;
};
