/**
 * GET query-async-task-result: status, then the result URLs or the failure once task_status is 2. Only for
 * the key that submitted the task: another gets the answer of an id that does not exist, so whether it
 * exists does not leak either. (Tasks from before owners were kept have none and answer any valid key.)
 */
import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../contract/index.ts';
import { validateFields } from '../../contract/validate.ts';
import { fillShape } from '../../contract/result.ts';
import { queryFields } from '../http/query.ts';
import { resultUrl } from '../results/store.ts';
import { errorCodes, isErrorCode } from '../../contract/errors.ts';
import type { Services } from '../services.ts';

export default async function taskResultRoute(app: FastifyInstance, { services }: { services: Services }) {
  const endpoint = endpoints.queryAsyncTaskResult;
  app.get(endpoint.path, async (req, reply) => {
    const { task_id } = validateFields(endpoint, queryFields(endpoint, req.query), new Set()) as { task_id: string };
    const found = /^[a-f0-9]{32}$/.test(task_id) ? await services.tasks.find(task_id) : undefined;
    const task = found && (found.owner === undefined || found.owner === req.apiKeyOwner) ? found : undefined;
    if (!task) return reply.fail('ERROR_TASK_NOT_EXISTS', `no task ${task_id}; tasks are kept 24 hours after submission`);
    if (task.status < 2) return reply.envelope({ task_status: task.status });
    if (task.error) {
      const code = isErrorCode(task.error.code) ? task.error.code : 'PROCESSING_FAILURE';
      // Failed tasks are completed too (task_status 2), so a client polling "until 2" stops.
      const req2 = req as typeof req & { requestId: string };
      return reply.code(errorCodes[code].status).type('application/json').send({
        request_id: req2.requestId, log_id: req.id, task_id: task.id, task_status: 2,
        error_detail: { code, code_message: errorCodes[code].summary, message: task.error.message },
      });
    }
    const base = services.baseUrl(req);
    const body = await fillShape(endpoint.result.shape, (leaf) => {
      if (leaf.from === 'task_result_urls') return (task.results ?? []).map((n) => resultUrl(base, n));
      if (leaf.from === 'value' && leaf.key === 'task_status') return 2;
      throw new Error(`the task query has no ${leaf.from} member`);
    });
    return reply.envelope({ task_id: task.id, ...(body as Record<string, unknown>) });
  });
}
