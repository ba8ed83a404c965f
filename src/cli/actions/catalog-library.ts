/**
 * `gramkit run --catalog` and `gramkit ab --catalog`: an agent's tools bound from a catalog at run
 * time. The agent may name catalog tools it does not define (by slug, like built-in tools); each
 * is the newest enabled, available version of that slug, made by its implementation (HTTP,
 * command, built-in or function) as the server would make it.
 */
import type { AgentSpecification } from '../../spec/agent-spec.js';
import type { Catalog } from '../../catalog/catalog.js';
import { isSlug, slugOfRegistryId } from '../../catalog/slug.js';
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
  readonly close: () => Promise<void>;
}

/**
 * The name an agent may call a catalog tool by: its slug, and the same with `_` for `-`
 * (`word-count` is also `word_count`, as registry ids map to slugs).
 */
const aliases = (slug: string): ReadonlyArray<string> => (slug.includes('-') ? [slug, slug.replace(/-/g, '_')] : [slug]);

/** Opens the catalog of `--catalog` (a directory or a Redis URL) for an agent run. */
export const openAgentCatalog = async (io: CliIO, location: string, workspace: string): Promise<Result<AgentCatalog, string>> => {
  const opened = await openCliCatalog(location, io, { workspace });
  if (!opened.ok) return opened;
  const catalog = opened.value;
  const specs = await catalog.specifications();
  return ok({ catalog, specifications: specs.flatMap((s) => aliases(s.record.slug).map((name) => (name === s.spec.name ? s.spec : { ...s.spec, name }))), close: () => catalog.close() });
};

/** The tools of `agent` the catalog has (the others are left to libraries, declarations and built-ins), under the agent's names. */
export const catalogLibrary = async (source: AgentCatalog, agent: AgentSpecification): Promise<ToolLibrary> => {
  let library = emptyToolLibrary;
  const specs = await source.catalog.specifications();
  const bySlug = new Map(specs.map((s) => [s.record.slug, s.record]));
  for (const t of agent.tools) {
    const record = bySlug.get(isSlug(t.name) ? t.name : slugOfRegistryId(t.name));
    if (record === undefined) continue;
    const bound = await source.catalog.boundTool({ id: record.toolID });
    if (!bound.ok) continue;
    const tool = bound.value.tool;
    const named = tool.name === t.name ? tool : createTool(t.name, tool.description, tool.schema, tool.invoke, { ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}), ...(tool.limits !== undefined ? { limits: tool.limits } : {}), ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}) });
    library = registerTool(t.name, named, library);
  }
  return library;
};
