/**
 * Approvals asked through the MCP client (elicitation): a served call that needs a person's yes
 * sends `elicitation/create` to the client that made it, whose host shows the question (the tool,
 * why it asks, the arguments) and answers accept, decline or cancel. The approver is handed to the
 * policy gate like any other, so the decision flows through the one gate.
 *
 * The form lets the person change the arguments where the approval allows it: when every argument
 * is a string, number or boolean, each one is a field pre-filled with the model's value (MCP forms
 * take only flat primitive fields); otherwise one `arguments` field holds their JSON. An accepted
 * form with other values is an approval with `modifiedArgs` (the gate validates and judges them
 * again). Decline, cancel, or a client that fails to answer, is a refusal saying so.
 */
import { isRecord } from '../core/json.js';
import { messageOf } from '../core/message.js';
import type { ApprovalRequest, ApprovalResponse, Approver } from '../policy/approvals.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** The `elicitation/create` form request (MCP's form mode). */
export interface ElicitationForm {
  readonly mode: 'form';
  readonly message: string;
  readonly requestedSchema: {
    readonly type: 'object';
    readonly properties: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
    readonly required?: ReadonlyArray<string>;
  };
}

/** What the client answered. */
export interface ElicitationAnswer {
  readonly action: 'accept' | 'decline' | 'cancel';
  readonly content?: Readonly<Record<string, unknown>>;
}

/** Sends the form to the client and resolves with its answer (the server's `elicitInput`). */
export type Elicit = (form: ElicitationForm, options: { readonly signal?: AbortSignal }) => Promise<ElicitationAnswer>;

/** The form field that holds the arguments as JSON when they are not all primitive. */
export const ARGUMENTS_FIELD = 'arguments';

// -------------------------------------------------------------------------------------------------
// the form
// -------------------------------------------------------------------------------------------------

const isPrimitive = (v: unknown): v is string | number | boolean => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

const fieldOf = (name: string, v: string | number | boolean): Readonly<Record<string, unknown>> => ({
  type: typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v,
  title: name,
  default: v,
});

/** Whether each argument can be its own form field. */
const flat = (args: Readonly<Record<string, unknown>>): boolean => Object.values(args).every(isPrimitive);

/** The form asking for approval of `request`. */
export const approvalForm = (request: ApprovalRequest): ElicitationForm => {
  const json = JSON.stringify(request.args);
  const message = `Allow the call of "${request.tool}"? ${request.reason}.\nArguments: ${json}\nAccept to run it (with the arguments as they are in the form), decline to refuse it.`;
  if (flat(request.args)) {
    const properties = Object.fromEntries(Object.entries(request.args).map(([k, v]) => [k, fieldOf(k, v as string | number | boolean)]));
    return { mode: 'form', message, requestedSchema: { type: 'object', properties, required: Object.keys(properties) } };
  }
  return {
    mode: 'form',
    message,
    requestedSchema: {
      type: 'object',
      properties: { [ARGUMENTS_FIELD]: { type: 'string', title: 'Arguments (JSON)', default: json } },
      required: [ARGUMENTS_FIELD],
    },
  };
};

/** The approval an answer stands for. */
export const responseOf = (request: ApprovalRequest, answer: ElicitationAnswer): ApprovalResponse => {
  if (answer.action === 'decline') return { approved: false, message: `the person declined the call of "${request.tool}" (asked through the MCP client)` };
  if (answer.action !== 'accept') return { approved: false, message: `the approval of "${request.tool}" was cancelled in the MCP client` };
  const content = answer.content;
  if (content === undefined || Object.keys(content).length === 0) return { approved: true };
  let args: unknown = content;
  if (!flat(request.args)) {
    const text = content[ARGUMENTS_FIELD];
    if (typeof text !== 'string') return { approved: true };
    try {
      args = JSON.parse(text) as unknown;
    } catch (e) {
      return { approved: false, message: `the arguments given in the approval form are not JSON (${messageOf(e)}); the call was not run` };
    }
  }
  if (!isRecord(args)) return { approved: false, message: 'the arguments given in the approval form are not an object; the call was not run' };
  return JSON.stringify(args) === JSON.stringify(request.args) ? { approved: true } : { approved: true, modifiedArgs: args };
};

// -------------------------------------------------------------------------------------------------
// the approver
// -------------------------------------------------------------------------------------------------

/** An approver asking through `elicit`; never rejects (a failure to ask is a refusal saying why). */
export const elicitationApprover =
  (elicit: Elicit): Approver =>
  async (request, options) => {
    try {
      return responseOf(request, await elicit(approvalForm(request), options?.signal !== undefined ? { signal: options.signal } : {}));
    } catch (e) {
      return { approved: false, message: `approval of "${request.tool}" was asked through the MCP client, which did not answer: ${messageOf(e)}` };
    }
  };
