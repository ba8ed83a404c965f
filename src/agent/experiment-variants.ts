/**
 * The variants of an experiment as data: the product of specifications × libraries × models, each
 * named from its parts (`spec/library/model`) in the shortest form that tells them apart (only the
 * parts given more than once; the library's name when every part is single). The first of each
 * list comes first, so the first variant, the baseline, is the first specification with the first
 * library and the first model. `gramkit ab` builds its variants with it.
 */
import type { ToolLibrary } from '../library/tool-library.js';
import type { AgentSpecification } from '../specification/agent-spec.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** A list of named things, as `[{name, value}]` or `{name: value}`. */
export type Named<T> = ReadonlyArray<{ readonly name: string; readonly value: T }> | Readonly<Record<string, T>>;

/** The parts of an experiment's variants; `M`, what a model is (a model, or a function of the run giving one). */
export interface VariantParts<M> {
  /** Specifications of the agent (the agent, its tools specified otherwise); default: the experiment's `agent` only. */
  readonly specs?: Named<AgentSpecification>;
  readonly libraries: Named<ToolLibrary>;
  /** Models; default: the experiment's `model` only. */
  readonly models?: Named<M>;
}

/** One combination of the parts (an `ExperimentVariant`). */
export interface PartsVariant<M> {
  readonly name: string;
  readonly library: ToolLibrary;
  readonly agent?: AgentSpecification;
  readonly model?: M;
}

// -------------------------------------------------------------------------------------------------
// product
// -------------------------------------------------------------------------------------------------

const entries = <T>(x: Named<T> | undefined): ReadonlyArray<{ readonly name: string; readonly value: T }> =>
  x === undefined
    ? []
    : Array.isArray(x)
      ? (x as ReadonlyArray<{ name: string; value: T }>)
      : Object.entries(x as Readonly<Record<string, T>>).map(([name, value]) => ({ name, value }));

/** The name of one variant from its parts' names: the parts that vary, joined with `/`. */
export const variantName = (
  parts: { readonly spec?: string; readonly library: string; readonly model?: string },
  varies: { readonly spec: boolean; readonly library: boolean; readonly model: boolean },
): string => {
  const named = [varies.spec ? parts.spec : undefined, varies.library ? parts.library : undefined, varies.model ? parts.model : undefined].filter(
    (x): x is string => x !== undefined,
  );
  return named.length > 0 ? named.join('/') : parts.library;
};

/**
 * Every combination of a specification, a library and a model, in that nesting order (the
 * specification varies slowest), each named by `variantName`.
 */
export const experimentVariants = <M>(parts: VariantParts<M>): ReadonlyArray<PartsVariant<M>> => {
  const specs = entries(parts.specs);
  const libraries = entries(parts.libraries);
  const models = entries(parts.models);
  const varies = { spec: specs.length > 1, library: libraries.length > 1, model: models.length > 1 };
  const out: Array<PartsVariant<M>> = [];
  for (const spec of specs.length > 0 ? specs : [undefined]) {
    for (const library of libraries) {
      for (const model of models.length > 0 ? models : [undefined]) {
        out.push({
          name: variantName(
            { ...(spec !== undefined ? { spec: spec.name } : {}), library: library.name, ...(model !== undefined ? { model: model.name } : {}) },
            varies,
          ),
          library: library.value,
          ...(spec !== undefined ? { agent: spec.value } : {}),
          ...(model !== undefined ? { model: model.value } : {}),
        });
      }
    }
  }
  return out;
};
