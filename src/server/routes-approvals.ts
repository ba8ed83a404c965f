/**
 * The approval routes: the calls waiting for a person (`GET /api/v1/approvals`, with their
 * arguments and the reason), and a decision on one (`POST /api/v1/approvals/{id}/approve`,
 * optionally with changed arguments, which the gate validates and judges again; `POST
 * …/{id}/deny`, optionally with a message for the caller). Each needs the `approve_tool` scope.
 * A service without a queue (`--yes`, `--approvals deny`) lists nothing and decides nothing.
 */
import type { ApprovalQueue } from '../policy/approval-queue.js';
import { Scopes, ServiceCodes } from './codes.js';
import { problem } from './problem.js';
import { json, type Reply, type RequestContext, type RouteSpec } from './route.js';
import { ApproveSchema, DenySchema, refTo, UUID_PATTERN } from './schemas.js';

const problemRef = { description: 'problem details (application/problem+json)', schema: refTo('Problem') };
const idParam = { id: { description: "the approval's id (from GET /api/v1/approvals)", schema: { type: 'string', pattern: UUID_PATTERN } } };

/** The decision on one approval, as the route answers it. */
const decide = (c: RequestContext, approved: boolean): Reply => {
  const id = c.params['id'] as string;
  const queue: ApprovalQueue | undefined = c.approvals;
  if (queue === undefined) {
    return {
      kind: 'problem',
      problem: problem(
        ServiceCodes.APPROVAL_NOT_FOUND,
        `no call waits for approval under ${id}: this server does not queue approvals (it was started with --yes or --approvals deny)`,
        { id },
      ),
    };
  }
  const body = (c.body ?? {}) as { readonly args?: Readonly<Record<string, unknown>>; readonly message?: string };
  const r = queue.decide(id, {
    approved,
    ...(approved && body.args !== undefined ? { modifiedArgs: body.args } : {}),
    ...(body.message !== undefined ? { message: body.message } : {}),
  });
  if (r.ok) return json(200, { outcome: approved ? 'approved' : 'denied', approval: r.value });
  if (r.error.kind === 'ended') {
    return {
      kind: 'problem',
      problem: problem(ServiceCodes.APPROVAL_ENDED, `the approval ${id} already ended: ${r.error.outcome}`, { id, outcome: r.error.outcome }),
    };
  }
  return { kind: 'problem', problem: problem(ServiceCodes.APPROVAL_NOT_FOUND, `no call waits for approval under ${id}`, { id }) };
};

export const approvalRoutes: ReadonlyArray<RouteSpec> = [
  {
    method: 'get',
    path: '/api/v1/approvals',
    operationId: 'approvalsList',
    summary: "The calls waiting for a person's approval, oldest first, with their arguments and the reason",
    tag: 'approvals',
    scope: Scopes.APPROVE,
    responses: { 200: { description: '{approvals: [...], enabled}', schema: refTo('ApprovalList') } },
    handler: async (c) => {
      const q = c.approvals;
      return json(
        200,
        q === undefined ? { approvals: [], enabled: false } : { approvals: q.pending(), enabled: true, timeoutMs: q.timeoutMs, maxPending: q.maxPending },
      );
    },
  },
  {
    method: 'post',
    path: '/api/v1/approvals/:id/approve',
    operationId: 'approvalsApprove',
    summary: 'Approve a waiting call, optionally with changed arguments ({args}); the call then runs',
    tag: 'approvals',
    scope: Scopes.APPROVE,
    params: idParam,
    body: { schema: ApproveSchema, required: false, description: '{args?, message?}' },
    responses: { 200: { description: 'approved', schema: refTo('ApprovalDecided') }, 400: problemRef, 404: problemRef, 409: problemRef },
    handler: async (c) => decide(c, true),
  },
  {
    method: 'post',
    path: '/api/v1/approvals/:id/deny',
    operationId: 'approvalsDeny',
    summary: 'Refuse a waiting call, optionally saying why ({message}); the waiting call is refused with it',
    tag: 'approvals',
    scope: Scopes.APPROVE,
    params: idParam,
    body: { schema: DenySchema, required: false, description: '{message?}' },
    responses: { 200: { description: 'denied', schema: refTo('ApprovalDecided') }, 400: problemRef, 404: problemRef, 409: problemRef },
    handler: async (c) => decide(c, false),
  },
];
