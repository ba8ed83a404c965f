/**
 * What an experiment holds of each run for its summaries and paired tests, in columns of typed
 * arrays sized once (the number of runs is known before the first starts): whether it completed and
 * succeeded, its score, each score by name, its latency, its error code. About `29 + 8 × score
 * names` bytes a run, outside the JavaScript heap, and no object per run: with `keepRuns: false`
 * the experiment's memory grows by that much a run, not by its conversation.
 *
 * A run's scores are read back in the order the run had them (the report's `scores` keys follow
 * the order in which the runs, taken in position order, first name them).
 */

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** The part of a run the outcomes hold. */
export interface RunOutcome {
  readonly completed: boolean;
  readonly success: boolean;
  readonly score: number;
  readonly scores: Readonly<Record<string, { readonly score: number }>>;
  readonly durationMs: number;
  readonly error?: { readonly reason: string };
}

/** One variant's runs, in position order (input, repetition): the columns the summaries read. */
export interface VariantOutcomes {
  readonly runs: number;
  readonly completed: number;
  readonly success: ReadonlyArray<number>;
  readonly score: ReadonlyArray<number>;
  readonly durationMs: ReadonlyArray<number>;
  /** Score names in the order the runs first name them. */
  readonly scoreNames: ReadonlyArray<string>;
  /** The runs' values of one score (runs without it left out). */
  readonly scoreValues: (name: string) => ReadonlyArray<number>;
  /** Runs that ended without an answer, by precise code. */
  readonly errorsByCode: Readonly<Record<string, number>>;
}

export interface Outcomes {
  /** Holds run `position` (of `size`) of variant `variant` (its index). */
  readonly record: (position: number, variant: number, run: RunOutcome) => void;
  readonly ofVariant: (variant: number) => VariantOutcomes;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

const COMPLETED = 1;
const SUCCESS = 2;
const RECORDED = 4;

/** Index of `key` in `table`, added when new. */
const intern = (table: string[], index: Map<string, number>, key: string): number => {
  let i = index.get(key);
  if (i === undefined) {
    i = table.length;
    table.push(key);
    index.set(key, i);
  }
  return i;
};

/** Columns for `size` runs. */
export const createOutcomes = (size: number): Outcomes => {
  const flags = new Uint8Array(size);
  const variantOf = new Uint32Array(size);
  const score = new Float64Array(size);
  const duration = new Float64Array(size);
  // error codes and score-name lists, interned: a run holds their index (0: none)
  const errorOf = new Uint32Array(size);
  const errors: string[] = [''];
  const errorIndex = new Map<string, number>();
  const namesOf = new Uint32Array(size);
  const nameLists: Array<ReadonlyArray<string>> = [[]];
  const nameListIndex = new Map<string, number>();
  // one column per score name, NaN where a run has no such score
  const columns = new Map<string, Float64Array>();

  // the list of the run recorded last: most runs have the same names as the one before
  let last = 0;
  const sameNames = (l: number, scores: RunOutcome['scores']): boolean => {
    const names = nameLists[l] as ReadonlyArray<string>;
    let k = 0;
    for (const name in scores) if (names[k++] !== name) return false;
    return k === names.length;
  };
  /** The index of the run's list of score names, interned. */
  const listOf = (scores: RunOutcome['scores']): number => {
    // the list's key: each name with its length before it (no name can run into the next)
    let key = '';
    for (const name in scores) key = `${key}${name.length}:${name}`;
    let l = key === '' ? 0 : nameListIndex.get(key);
    if (l === undefined) {
      l = nameLists.length;
      nameLists.push(Object.keys(scores));
      nameListIndex.set(key, l);
    }
    last = l;
    return l;
  };

  const record = (position: number, variant: number, run: RunOutcome): void => {
    flags[position] = RECORDED | (run.completed ? COMPLETED : 0) | (run.success ? SUCCESS : 0);
    variantOf[position] = variant;
    score[position] = run.score;
    duration[position] = run.durationMs;
    errorOf[position] = run.error === undefined ? 0 : intern(errors, errorIndex, run.error.reason);
    for (const name in run.scores) {
      let column = columns.get(name);
      if (column === undefined) {
        column = new Float64Array(size).fill(Number.NaN);
        columns.set(name, column);
      }
      column[position] = (run.scores[name] as { readonly score: number }).score;
    }
    namesOf[position] = sameNames(last, run.scores) ? last : listOf(run.scores);
  };

  const ofVariant = (v: number): VariantOutcomes => {
    const positions: number[] = [];
    for (let i = 0; i < size; i++) if ((flags[i] as number) & RECORDED && variantOf[i] === v) positions.push(i);
    const names = new Set<string>();
    const seenLists = new Set<number>();
    const errorsByCode: Record<string, number> = {};
    let completed = 0;
    for (const i of positions) {
      if ((flags[i] as number) & COMPLETED) completed++;
      const e = errorOf[i] as number;
      if (e !== 0) errorsByCode[errors[e] as string] = (errorsByCode[errors[e] as string] ?? 0) + 1;
      const l = namesOf[i] as number;
      if (l !== 0 && !seenLists.has(l)) {
        seenLists.add(l);
        for (const name of nameLists[l] as ReadonlyArray<string>) names.add(name);
      }
    }
    return {
      runs: positions.length,
      completed,
      success: positions.map((i) => ((flags[i] as number) & SUCCESS ? 1 : 0)),
      score: positions.map((i) => score[i] as number),
      durationMs: positions.map((i) => duration[i] as number),
      scoreNames: [...names],
      scoreValues: (name) => {
        const column = columns.get(name);
        if (column === undefined) return [];
        const out: number[] = [];
        for (const i of positions) if (!Number.isNaN(column[i] as number)) out.push(column[i] as number);
        return out;
      },
      errorsByCode,
    };
  };

  return { record, ofVariant };
};
