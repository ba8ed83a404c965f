/**
 * Gemini's thought signatures: opaque strings a thinking model (2.5, 3) attaches to its
 * `functionCall` parts, which must come back with the conversation (Gemini 3 answers 400 when the
 * first call of a step in the current turn has none). A `ToolCall` has no field for them, so they
 * are kept beside the call objects the model returned (a WeakMap: the agent loop passes those same
 * objects back). A call without a known signature (a saved conversation, a replay, another
 * provider's turn) is sent with the validator-skipping value Google documents for that case.
 */
import type { ToolCall } from '../agent/messages.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** Google's documented stand-in for a signature gramkit does not have. */
export const SKIP_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

const signatures = new WeakMap<ToolCall, string>();

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

export const rememberThoughtSignature = (call: ToolCall, signature: string): void => {
  signatures.set(call, signature);
};

/** The signature Gemini sent with `call`, when this process read it. */
export const thoughtSignatureOf = (call: ToolCall): string | undefined => signatures.get(call);
