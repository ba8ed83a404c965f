/**
 * How an experiment's runs are scored. Every score is a number from 0 to 1 (pass/fail is 1 or 0),
 * by scorer name:
 *
 * - `toolCalls`: the calls the model asked for match the input's `expectedToolCalls` (BFCL's AST
 *   checker, tool-call-match.ts); 0 with the reason when they do not;
 * - `expected`: the answer contains the text (case-insensitive); `equals`: the answer is the text
 *   (spacing at the ends aside); `pattern`: the answer matches the regular expression;
 *   `schema`: the answer is JSON that the JSON Schema accepts;
 * - any scorer the caller gives (`--scorer module.mjs`): `(run) => {score, reason}` (or a number,
 *   or a boolean), sync or async; one that throws or returns something else scores 0 with why.
 *
 * A run succeeds when it completed and every built-in check scored 1.
 */
import { isJsonObject } from '../core/json.js';
import type { JsonObject } from '../core/json-schema.js';
import { validateValue, formatIssues } from '../schema/validate.js';
import { type AskedToolCall, type ExpectedToolCall, matchToolCalls } from './tool-call-match.js';
import { isRight } from '../core/either.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** What an input says a good run does (every field optional). */
export interface AnswerChecks {
  /** Text the answer must contain (case-insensitive). */
  readonly expected?: string;
  /** Text the answer must be (ends trimmed). */
  readonly equals?: string;
  /** A regular expression the answer must match (JavaScript syntax, no flags). */
  readonly pattern?: string;
  /** A JSON Schema the answer, read as JSON, must satisfy. */
  readonly schema?: JsonObject;
  /** The tool calls the model must ask for, in BFCL's possible-answer form. */
  readonly expectedToolCalls?: ReadonlyArray<ExpectedToolCall>;
}

export interface RunScore {
  /** From 0 to 1. */
  readonly score: number;
  readonly reason?: string;
}

/** What a scorer is given: the run as the report has it, and its input's message. */
export interface ScorerInput {
  readonly variant: string;
  readonly inputId: string;
  readonly message: string;
  readonly repetition: number;
  readonly completed: boolean;
  readonly content?: string;
  readonly error?: { readonly code: string; readonly reason: string; readonly message: string };
  readonly askedToolCalls: ReadonlyArray<AskedToolCall>;
  readonly toolCalls: ReadonlyArray<{ readonly name: string; readonly ok: boolean; readonly code?: string; readonly reason?: string }>;
}

/** A scorer of the caller's: a number from 0 to 1, a boolean, or `{score, reason}`. */
export type ExperimentScorer = (run: ScorerInput) => RunScore | number | boolean | Promise<RunScore | number | boolean>;

// -------------------------------------------------------------------------------------------------
// the checks
// -------------------------------------------------------------------------------------------------

/** The verdicts every run shares (frozen: a report's runs may hold the same one). */
const PASSED: RunScore = Object.freeze({ score: 1 });
const NO_ANSWER: RunScore = Object.freeze({ score: 0, reason: 'the run ended without an answer' });

/** The problem with an input's checks (a bad regular expression or schema), if any. */
export const checkAnswerChecks = (c: AnswerChecks): string | undefined => {
  if (c.pattern !== undefined) {
    try {
      new RegExp(c.pattern);
    } catch (e) {
      return `"pattern" is not a regular expression: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  if (c.schema !== undefined && !isJsonObject(c.schema)) return '"schema" must be a JSON Schema (an object)';
  return undefined;
};

const parsed = (text: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false } => {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
};

/**
 * The built-in scores of a run: one per check its input has. `schemaOf` gives a tool's argument
 * schema by name (for `expectedToolCalls`).
 */
export const builtinScores = (
  checks: AnswerChecks,
  run: Pick<ScorerInput, 'completed' | 'content' | 'askedToolCalls'>,
  schemaOf: (tool: string) => JsonObject | undefined,
): Readonly<Record<string, RunScore>> => {
  const out: Record<string, RunScore> = {};
  if (checks.expectedToolCalls !== undefined) {
    const m = matchToolCalls(checks.expectedToolCalls, run.askedToolCalls, schemaOf);
    out['toolCalls'] = m.match ? PASSED : { score: 0, reason: m.reason };
  }
  const answer = run.completed ? (run.content ?? '') : undefined;
  const { expected, equals, pattern } = checks;
  // the verdicts written out (no closure a run): most runs pass, and a reason is made only for a fail
  if (expected !== undefined)
    out['expected'] =
      answer === undefined
        ? NO_ANSWER
        : answer.toLowerCase().includes(expected.toLowerCase())
          ? PASSED
          : { score: 0, reason: `the answer does not contain ${JSON.stringify(expected)}` };
  if (equals !== undefined)
    out['equals'] =
      answer === undefined ? NO_ANSWER : answer.trim() === equals.trim() ? PASSED : { score: 0, reason: `the answer is not ${JSON.stringify(equals)}` };
  if (pattern !== undefined)
    out['pattern'] =
      answer === undefined ? NO_ANSWER : new RegExp(pattern).test(answer) ? PASSED : { score: 0, reason: `the answer does not match /${pattern}/` };
  if (checks.schema !== undefined) {
    if (answer === undefined) out['schema'] = NO_ANSWER;
    else {
      const json = parsed(answer.trim());
      if (!json.ok) out['schema'] = { score: 0, reason: 'the answer is not JSON' };
      else {
        const v = validateValue(checks.schema, json.value);
        out['schema'] = isRight(v) ? PASSED : { score: 0, reason: `the answer does not satisfy the schema: ${formatIssues(v.left)}` };
      }
    }
  }
  return out;
};

/** A caller's scorer's verdict as a score: anything but a number in [0, 1], a boolean or `{score, reason}` is 0 with why. */
export const runScorer = async (scorer: ExperimentScorer, run: ScorerInput): Promise<RunScore> => {
  try {
    const r = await scorer(run);
    const s = typeof r === 'boolean' ? { score: r ? 1 : 0 } : typeof r === 'number' ? { score: r } : r;
    if (typeof s !== 'object' || s === null || typeof s.score !== 'number' || !Number.isFinite(s.score) || s.score < 0 || s.score > 1) {
      return { score: 0, reason: `the scorer returned ${JSON.stringify(r)}, not a score from 0 to 1` };
    }
    return typeof s.reason === 'string' ? { score: s.score, reason: s.reason } : { score: s.score };
  } catch (e) {
    return { score: 0, reason: `the scorer threw: ${e instanceof Error ? e.message : String(e)}` };
  }
};

/** A run's score: the mean of its scores, or 1/0 for success when it has none. */
export const meanScore = (scores: Readonly<Record<string, RunScore>>, success: boolean): number => {
  let n = 0;
  let sum = 0;
  for (const name in scores) {
    n++;
    sum += (scores[name] as RunScore).score;
  }
  return n === 0 ? (success ? 1 : 0) : sum / n;
};
