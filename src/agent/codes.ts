/**
 * The agent layer's codes (`AGENT_`): why a run ended without an answer, and why a model call
 * failed (the model interface's `ModelErrorCode`s, which providers return). Tool failures never end
 * a run: they are results the model reads, with the codes of the tool's layer.
 */
import { type CodeOf, defineCodes } from '../core/codes.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export const AgentCodes = defineCodes('agent', 'AGENT', {
  // model calls (also the run's codes when a model call ends it)
  LLM_API_ERROR: {
    canonical: 'UNAVAILABLE',
    summary: "the model's API answered with an error (after the provider's retries), or its transport failed (details: status, provider)",
    retryable: 'sometimes',
    hint: 'read the message: a 5xx may pass, a 4xx needs a change (the key, the model name, the request)',
  },
  CONFIGURATION_ERROR: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'something is wrong before anything runs: tools that do not bind, a missing API key, bad options',
    hint: 'fix the configuration as the message says; the hint names the option',
  },
  CANCELLED: { canonical: 'CANCELLED', summary: 'the caller aborted the run (or the model call)', hint: 'nothing to do: the caller asked for it' },
  TIMEOUT: {
    canonical: 'TIMEOUT',
    summary: 'the run took longer than `maxDurationMs`, or a model call timed out',
    retryable: true,
    hint: 'try again, or raise the time limit',
  },
  RATE_LIMITED: {
    canonical: 'RATE_LIMITED',
    summary: "the model's API kept answering 429 after the provider's retries",
    retryable: true,
    hint: 'wait and try again, or lower the request rate',
  },
  INVALID_RESPONSE: {
    canonical: 'UNAVAILABLE',
    summary: "the model's answer could not be read (not the provider's format, too large)",
    retryable: 'sometimes',
    hint: 'try again; check the base URL if it persists (another server may be answering)',
  },
  REPLAY_MISMATCH: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a replayed model got a request its recording does not have (details: where they differ)',
    hint: 'record again (--record), or make the run ask what was recorded',
  },
  STREAM_INTERRUPTED: {
    canonical: 'UNAVAILABLE',
    summary:
      "a streamed answer ended before the provider's end marker (`[DONE]` or a finish reason, `message_stop`, `response.completed`, a Gemini `finishReason`): nothing of it is used, no tool of it runs",
    retryable: true,
    hint: 'try again: the connection was probably cut',
  },
  // runs
  MAX_STEPS: {
    canonical: 'LIMIT_EXCEEDED',
    summary: 'the model kept calling tools for `maxSteps` model calls without answering',
    hint: 'raise maxSteps, or make the instruction say when to stop',
  },
  INVALID_CONVERSATION: {
    canonical: 'INVALID_ARGUMENTS',
    summary: 'the conversation given to the run is not one a model can continue (details: where)',
    hint: 'fix the messages as the message says (every tool call needs one tool result, in order)',
  },
  STOPPED: { canonical: 'CANCELLED', summary: "a caller's stop condition ended the run", hint: 'nothing to do: the stop condition says why' },
  EXECUTOR_FAILED: {
    canonical: 'UNAVAILABLE',
    summary: "a run sent elsewhere (an experiment's executor: `gramkit ab --queue`) could not be made: a worker refused its job, or the job failed",
    retryable: 'sometimes',
    hint: "read the message (the worker's reason): a worker loads only files under its --root",
  },
  INTERNAL_ERROR: {
    canonical: 'INTERNAL',
    summary: 'a bug (in gramkit or a callback it was given) ended the run; what it did is kept',
    hint: 'read the message; please report it if the bug is in gramkit',
  },
});

export type AgentCode = CodeOf<typeof AgentCodes>;

/** The codes a model call may fail with (`ModelError.code`). */
export type ModelErrorCode =
  | typeof AgentCodes.LLM_API_ERROR
  | typeof AgentCodes.CONFIGURATION_ERROR
  | typeof AgentCodes.CANCELLED
  | typeof AgentCodes.TIMEOUT
  | typeof AgentCodes.RATE_LIMITED
  | typeof AgentCodes.INVALID_RESPONSE
  | typeof AgentCodes.STREAM_INTERRUPTED
  | typeof AgentCodes.REPLAY_MISMATCH;
