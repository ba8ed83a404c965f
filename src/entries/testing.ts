/**
 * `gramkit/testing`: helpers for testing code built on gramkit. A scripted model (a mock that
 * plays given turns and records the requests it gets) and fast-check arbitraries of the values a
 * type accepts (fast-check is an optional peer dependency).
 */
export type { ScriptedTurn, ScriptedToolCall, ScriptedScript, ScriptedModel } from '../testing/scripted.js';
export { scriptedModel } from '../testing/scripted.js';
export type { ValueArbitraryOptions } from '../testing/arbitrary.js';
export { valueArbitrary } from '../testing/arbitrary.js';
