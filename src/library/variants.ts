/**
 * A/B variants: the same specifications bound against several libraries, each variant with its
 * own usage metrics, so two sets of implementations of one agent can be run side by side and
 * compared (answers from the results, speed and failures from the metrics). The agent's
 * experiment runner builds on it.
 */
import { type Either, left, right, isLeft } from '../core/either.js';
import type { ToolSpecification } from '../specification/tool-spec.js';
import { type BindError, type BindOptions, bindAll, type BoundTools } from './bind.js';
import { combineObservers } from './events.js';
import { createToolMetrics, type MetricsSnapshot, type ToolMetrics } from './metrics.js';
import type { ToolLibrary } from './tool-library.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface Variant {
  /** The key of its library in the `libraries` given to `bindVariants`. */
  readonly name: string;
  readonly library: ToolLibrary;
  /** The specifications bound to this variant's library. */
  readonly tools: BoundTools;
  /** Every call of `tools` is recorded here. */
  readonly metrics: ToolMetrics;
}

export interface VariantBindError extends BindError {
  readonly variant: string;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/**
 * Binds `specs` against every library of `libraries` (`{fast: libA, slow: libB}`), in the order of
 * its keys. Right: one variant per library, each with fresh metrics (combined with
 * `options.observer`, if any). Left: every bind error of every variant, tagged with the variant,
 * so a library that does not implement the specifications is found before the experiment runs.
 */
export const bindVariants = (
  specs: ReadonlyArray<ToolSpecification>,
  libraries: Readonly<Record<string, ToolLibrary>>,
  options: BindOptions = {},
): Either<ReadonlyArray<VariantBindError>, ReadonlyArray<Variant>> => {
  const errors: VariantBindError[] = [];
  const variants: Variant[] = [];
  for (const [name, library] of Object.entries(libraries)) {
    const metrics = createToolMetrics();
    const observer = combineObservers(options.observer, metrics);
    const bound = bindAll(specs, library, { ...options, ...(observer !== undefined ? { observer } : {}) });
    if (isLeft(bound)) errors.push(...bound.left.map((e) => ({ ...e, variant: name, message: `[${name}] ${e.message}` })));
    else variants.push({ name, library, tools: bound.right, metrics });
  }
  return errors.length > 0 ? left(errors) : right(variants);
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** The metrics of every variant, by variant name: `{fast: {tools: {...}}, slow: {tools: {...}}}`. */
export const variantMetrics = (variants: ReadonlyArray<Variant>): Readonly<Record<string, MetricsSnapshot>> =>
  Object.fromEntries(variants.map((v) => [v.name, v.metrics.snapshot()]));
