/**
 * `gramkit run <agent.gram> [message]`: runs an agent of a `.gram` file on a message and prints
 * its answer. With no message: an interactive chat on a terminal (the conversation is kept across
 * turns), or the message read from standard input otherwise.
 *
 * stdout: the answer (or with `--json` the whole result: content, tool calls, messages, usage,
 * trace). stderr: problems, approval prompts, and with `--debug` every step as it happens and the
 * trace. Exit 0 when the agent answered, 1 when it could not run or stopped without an answer, 2
 * for usage errors.
 */
import { bindAgent } from '../../agent/bind-agent.js';
import { formatAgentError } from '../../agent/agent-error.js';
import type { AgentEvent } from '../../agent/events.js';
import type { Message } from '../../agent/messages.js';
import type { Model } from '../../agent/model.js';
import { runBoundAgent } from '../../agent/run-agent.js';
import type { AgentProgress, AgentResult, RunAgentOptions } from '../../agent/run-types.js';
import { formatTrace } from '../../agent/trace.js';
import type { Approver } from '../../policy/approvals.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type CommandContext } from '../context.js';
import { agentLibrary, agentModel, loadAgent, positiveIntegers, reportSetup } from './agent-setup.js';
import { chatInput } from './chat-input.js';
import { chooseApprover, commandPolicies } from '../../project/approval.js';
import { functionLibraries, resolveWorkspace } from './spec-source.js';
import { isLeft } from '../../core/either.js';
// loaded only with --catalog (the catalog's modules cost start-up time)
import type { AgentCatalog } from './catalog-library.js';
import { reportError, reportWarning, usageError } from '../report.js';
import { CatalogCodes } from '../../catalog/codes.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface RunCommandOptions {
  readonly library?: ReadonlyArray<string>;
  readonly agent?: string;
  readonly model?: string;
  readonly baseUrl?: string;
  readonly debug?: boolean;
  readonly json?: boolean;
  readonly record?: string;
  readonly yes?: boolean;
  readonly deny?: boolean;
  readonly workspace?: string;
  readonly maxSteps?: string;
  readonly timeout?: string;
  /** A catalog (directory or Redis URL) the agent's tools are bound from. */
  readonly catalog?: string;
}

// -------------------------------------------------------------------------------------------------
// printing
// -------------------------------------------------------------------------------------------------

const cut = (s: string, max = 160): string => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
};

/** One line per event, for `--debug`. */
export const describeEvent = (e: AgentEvent): string | undefined => {
  switch (e.type) {
    case 'run-started':
      return `run ${e.runId}: agent ${e.agent}, model ${e.model}`;
    case 'model-response': {
      const calls = e.message.toolCalls ?? [];
      const text = e.message.content.length > 0 ? ` ${JSON.stringify(cut(e.message.content))}` : '';
      const what = calls.length > 0 ? ` calls ${calls.map((c) => `${c.name}(${cut(c.arguments, 120)})`).join(', ')}` : '';
      return `[step ${e.step}] model (${e.finishReason}, ${e.usage.inputTokens}+${e.usage.outputTokens} tokens, ${e.durationMs.toFixed(1)} ms)${text}${what}`;
    }
    case 'model-error':
      return `[step ${e.step}] model failed: ${e.reason}: ${e.message}`;
    case 'approval-asked':
      return `[step ${e.step}] ${e.request.tool} needs approval: ${e.request.reason}`;
    case 'approval-answered':
      return `[step ${e.step}] ${e.request.tool} ${e.response.approved ? `approved${e.response.modifiedArgs !== undefined ? ' with changed arguments' : ''}` : `refused${e.response.message !== undefined ? `: ${e.response.message}` : ''}`}`;
    case 'tool-call-finished':
      return `[step ${e.step}] ${e.call.name} → ${e.result.ok ? `ok ${cut(JSON.stringify(e.result.value) ?? 'null', 120)}` : `${e.result.error.reason}: ${cut(e.result.error.message, 200)}`} (${e.durationMs.toFixed(1)} ms)`;
    case 'run-finished':
      return `run finished: ${e.ok ? 'answered' : e.reason} after ${e.steps} step${e.steps === 1 ? '' : 's'} (${e.durationMs.toFixed(1)} ms)`;
    default:
      return undefined;
  }
};

/** What the user should know after a run: calls refused for want of an approver. */
const approvalNote = (progress: AgentProgress | undefined): string | undefined => {
  const refused = (progress?.toolsUsed ?? []).filter((u) => u.approval !== undefined && !u.approval.approved && u.approval.message === 'no approver');
  if (refused.length === 0) return undefined;
  return `note: ${refused.length} call${refused.length === 1 ? '' : 's'} (${[...new Set(refused.map((u) => u.name))].join(', ')}) needed approval and ${refused.length === 1 ? 'was' : 'were'} refused: run with --yes to approve, or interactively on a terminal`;
};

const printResult = (ctx: CommandContext, result: AgentResult, options: RunCommandOptions): number => {
  const progress = result.ok ? result.value : result.error.partial;
  if (options.debug === true && progress !== undefined) ctx.io.stderr(`${formatTrace(progress.trace)}\n`);
  if (options.json === true) ctx.io.stdout(`${JSON.stringify(result, null, 2)}\n`);
  else if (result.ok) ctx.io.stdout(`${result.value.content}\n`);
  if (!result.ok) {
    const e = result.error;
    const report = typeof e.details === 'object' && e.details !== null ? (e.details as { report?: unknown }).report : undefined;
    ctx.io.stderr(`${formatAgentError(e)}${typeof report === 'string' ? `\n${report}` : ''}\n`);
  }
  const note = options.json === true ? undefined : approvalNote(progress);
  if (note !== undefined) ctx.io.stderr(`${note}\n`);
  return result.ok ? EXIT_OK : EXIT_FAILURE;
};

// -------------------------------------------------------------------------------------------------
// action
// -------------------------------------------------------------------------------------------------

export const action = async (ctx: CommandContext, file: string, message: string | undefined, options: RunCommandOptions): Promise<number> => {
  const { io } = ctx;
  const usage = (text: string): number => {
    usageError(io, text);
    return EXIT_USAGE;
  };
  if (options.yes === true && options.deny === true) return usage('--yes and --deny cannot be used together');
  if (file === '-' && message === undefined) return usage('the agent is read from stdin, so give the message as an argument');
  const numbers = positiveIntegers({ maxSteps: ['--max-steps', options.maxSteps], timeout: ['--timeout', options.timeout] });
  if (!numbers.ok) return usage(numbers.error.message);

  const workspace = await resolveWorkspace(io, options.workspace);
  if (!workspace.ok) {
    reportError(io, workspace.error);
    return EXIT_FAILURE;
  }
  let source: AgentCatalog | undefined;
  if (options.catalog !== undefined) {
    // the catalog's function tools run the functions of --library
    const functions = await functionLibraries(ctx, options.library ?? [], workspace.value);
    if (!functions.ok) {
      reportError(io, functions.error);
      return EXIT_FAILURE;
    }
    const { openAgentCatalog } = await import('./catalog-library.js');
    const opened = await openAgentCatalog(io, options.catalog, workspace.value, functions.value);
    if (!opened.ok) {
      reportError(io, { ...opened.error, message: `--catalog ${options.catalog}: ${opened.error.message}` });
      return EXIT_FAILURE;
    }
    source = opened.value;
    for (const u of source.unavailable) reportWarning(io, { reason: CatalogCodes.TOOL_UNAVAILABLE, message: `--catalog ${options.catalog}: ${u}` });
  }
  try {
    return await runWith(ctx, file, message, options, numbers.value, workspace.value, source);
  } finally {
    await source?.close();
  }
};

const runWith = async (
  ctx: CommandContext,
  file: string,
  message: string | undefined,
  options: RunCommandOptions,
  { maxSteps, timeout }: { readonly maxSteps?: number; readonly timeout?: number },
  workspacePath: string,
  source: AgentCatalog | undefined,
): Promise<number> => {
  const { io } = ctx;
  const usage = (text: string): number => {
    usageError(io, text);
    return EXIT_USAGE;
  };
  const loaded = await loadAgent(ctx, file, options.agent, source?.specifications ?? []);
  if (!loaded.ok) return reportSetup(io, loaded.error);
  const fromCatalog = source !== undefined ? await (await import('./catalog-library.js')).catalogLibrary(source, loaded.value.agent) : undefined;
  const library = await agentLibrary(ctx, loaded.value, options.library ?? [], workspacePath, fromCatalog);
  if (!library.ok) return reportSetup(io, library.error);
  const bound = bindAgent(loaded.value.agent, library.value);
  if (isLeft(bound)) return printResult(ctx, { ok: false, error: bound.left }, options);
  const model = agentModel(ctx, loaded.value.agent, {
    ...(options.model !== undefined ? { model: options.model } : {}),
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
    ...(options.record !== undefined ? { record: options.record } : {}),
  });
  if (!model.ok) return reportSetup(io, model.error);

  const interactive = message === undefined && io.isTTY;
  const onEvent =
    options.debug === true
      ? (e: AgentEvent) => {
          const line = describeEvent(e);
          if (line !== undefined) io.stderr(`${line}\n`);
        }
      : undefined;
  const base = (approve: Approver | undefined): RunAgentOptions => ({
    model: model.value,
    policies: commandPolicies(io.env),
    ...(approve !== undefined ? { approve } : {}),
    ...(maxSteps !== undefined ? { maxSteps } : {}),
    ...(timeout !== undefined ? { maxDurationMs: timeout } : {}),
    ...(onEvent !== undefined ? { onEvent } : {}),
  });

  if (!interactive) {
    const text = message ?? (await io.readStdin());
    if (text.trim() === '') return usage('give a message: gramkit run <agent.gram> "your message" (or pipe it on standard input)');
    // --yes, --deny, else no approver: a call that needs approval is refused, and the note says how to approve
    const result = await runBoundAgent(bound.right, text, base(chooseApprover(options).approver));
    return printResult(ctx, result, options);
  }
  return chat(ctx, bound.right, model.value, base, options);
};

// -------------------------------------------------------------------------------------------------
// interactive chat
// -------------------------------------------------------------------------------------------------

const chat = async (
  ctx: CommandContext,
  bound: Parameters<typeof runBoundAgent>[0],
  model: Model,
  base: (approve: Approver | undefined) => RunAgentOptions,
  options: RunCommandOptions,
): Promise<number> => {
  const { io } = ctx;
  const input = chatInput(io.stdin);
  // --yes, --deny, else the person at the terminal (answers read between the chat's messages)
  const chosen = chooseApprover(options, { terminal: { input: input.approvals, output: io.stderr } });
  const approve = chosen.approver;
  io.stderr(`Chatting with ${bound.agent.name} (model ${model.id}). Type /exit or press Ctrl-D to leave, /reset to start over.\n`);
  let conversation: ReadonlyArray<Message> = [];
  let code = EXIT_OK;
  try {
    for (;;) {
      // the prompt goes to stderr: stdout holds only answers (or JSON results with --json)
      io.stderr('> ');
      const line = await input.nextMessage();
      if (line === undefined) {
        io.stderr('\n');
        break;
      }
      const text = line.trim();
      if (text === '') continue;
      if (text === '/exit' || text === '/quit') break;
      if (text === '/reset') {
        conversation = [];
        io.stderr('(the conversation was reset)\n');
        continue;
      }
      let streamed = false;
      const streamedSteps = new Set<number>();
      const opts = base(approve);
      const onEvent = (e: AgentEvent): void => {
        opts.onEvent?.(e);
        if (e.type === 'text-delta' && options.json !== true) {
          streamed = true;
          streamedSteps.add(e.step);
          io.stdout(e.delta);
        }
        if (e.type === 'model-response' && streamed) {
          io.stdout('\n');
          streamed = false;
        }
      };
      const result = await input.whileRunning(() =>
        runBoundAgent(bound, [...conversation, { role: 'user', content: line }], { ...opts, stream: options.json !== true, onEvent }),
      );
      const progress = result.ok ? result.value : result.error.partial;
      if (progress !== undefined) conversation = progress.messages;
      // the answer was streamed already: print only what was not
      if (result.ok && options.json !== true) {
        const note = approvalNote(progress);
        if (note !== undefined) io.stderr(`${note}\n`);
        if (options.debug === true) io.stderr(`${formatTrace(result.value.trace)}\n`);
        if (result.value.content.length > 0 && !streamedSteps.has(result.value.steps)) io.stdout(`${result.value.content}\n`);
        code = EXIT_OK;
      } else {
        code = printResult(ctx, result, options);
      }
    }
  } finally {
    chosen.close();
    input.close();
  }
  return code;
};
