/**
 * What a run tells its `onEvent` listener, as it happens: plain data, one `type` per kind. A
 * listener cannot break a run: what it throws is caught (and counted in the trace).
 */
import type { ApprovalRequest, ApprovalResponse } from '../policy/approvals.js';
import type { ToolResult } from '../library/result.js';
import type { AssistantMessage, ToolCall } from './messages.js';
import type { FinishReason, Usage } from './model.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export type AgentEvent =
  | { readonly type: 'run-started'; readonly runId: string; readonly agent: string; readonly model: string; readonly startedAt: string }
  /** A request is about to go to the model (`step` counts model calls from 1). */
  | { readonly type: 'model-request'; readonly step: number; readonly messages: number; readonly tools: number }
  /** A piece of the model's text, as it streams (only with `stream: true`). */
  | { readonly type: 'text-delta'; readonly step: number; readonly delta: string }
  | {
      readonly type: 'model-response';
      readonly step: number;
      readonly message: AssistantMessage;
      readonly finishReason: FinishReason;
      readonly usage: Usage;
      readonly durationMs: number;
    }
  | {
      readonly type: 'model-error';
      readonly step: number;
      readonly code: string;
      readonly reason: string;
      readonly message: string;
      readonly durationMs: number;
    }
  /** A tool call begins (before policies and validation); `args` is the parsed arguments, or the text when it is not JSON. */
  | { readonly type: 'tool-call-started'; readonly step: number; readonly call: ToolCall; readonly args: unknown }
  | { readonly type: 'approval-asked'; readonly step: number; readonly callId: string; readonly request: ApprovalRequest }
  | {
      readonly type: 'approval-answered';
      readonly step: number;
      readonly callId: string;
      readonly request: ApprovalRequest;
      readonly response: ApprovalResponse;
    }
  | { readonly type: 'tool-call-finished'; readonly step: number; readonly call: ToolCall; readonly result: ToolResult; readonly durationMs: number }
  | {
      readonly type: 'run-finished';
      readonly runId: string;
      readonly ok: boolean;
      readonly code?: string;
      readonly reason?: string;
      readonly steps: number;
      readonly durationMs: number;
    };

export type AgentEventType = AgentEvent['type'];

export type AgentEventListener = (event: AgentEvent) => void;

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** An emitter that never throws; `failures()` counts what the listener threw. */
export const eventEmitter = (
  listener: AgentEventListener | undefined,
): { readonly emit: (e: AgentEvent) => void; readonly failures: () => number; readonly active: boolean } => {
  let failed = 0;
  if (listener === undefined) return { emit: () => undefined, failures: () => 0, active: false };
  return {
    emit: (e) => {
      try {
        listener(e);
      } catch {
        failed++;
      }
    },
    failures: () => failed,
    active: true,
  };
};
