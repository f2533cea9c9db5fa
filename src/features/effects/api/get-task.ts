/** The task query of the async endpoints, polled until task_status is 2 (done or failed). */
import { queryOptions } from '@tanstack/react-query';
import type { Query } from '@tanstack/react-query';
import { endpoints } from '../../../../contract/index.ts';
import type { TaskResult } from '../../../../contract/envelope.ts';
import { ApiError, ensureOk, errorDetailOf, requestJson, studioCodes } from '../../../lib/api-client.ts';
import type { ShownError } from '../../../lib/api-client.ts';

export interface TaskAnswer extends TaskResult {
  /** HTTP status of the answer: a failed task keeps its failure's status (e.g. 422). */
  httpStatus: number;
}

export const taskPath = (taskId: string) => `${endpoints.queryAsyncTaskResult.path}?task_id=${encodeURIComponent(taskId)}`;

export async function getTask(taskId: string): Promise<TaskAnswer> {
  const raw = await requestJson(taskPath(taskId));
  const body = raw.body as Partial<TaskResult> | null;
  // A failed task is an answer, not a failed request: task_status 2 with error_detail filled and no data.
  if (body?.task_status === 2 && errorDetailOf(body)) return { ...(body as TaskResult), httpStatus: raw.status };
  return { ...ensureOk<TaskResult>(raw), httpStatus: raw.status };
}

export const taskFailure = (t: TaskAnswer | undefined): ShownError | undefined => {
  const detail = t && t.task_status === 2 ? errorDetailOf(t) : undefined;
  return detail && { ...detail, status: t!.httpStatus, request_id: t!.request_id };
};

export const taskLabel = (status: number | undefined) => (status === 1 ? 'Processing' : status === 2 ? 'Done' : 'Queued');

/**
 * An answer that says nothing about the task: the engine unreachable, or a gateway's 502/503/504 while it
 * restarts. The task may well finish meanwhile (queued tasks are kept on disk), so polling goes on.
 */
export const isEngineAway = (e: unknown): boolean =>
  e instanceof ApiError && (e.code === studioCodes.network || (e.status >= 502 && e.status <= 504));

/** Every 3 s while the engine is away. */
export const AWAY_POLL_MS = 3000;

/**
 * Polls every second for the first half minute, then every 3 s, and every 3 s while the engine is away; stops
 * at task_status 2 or on an error that is the task's own (unknown task, refused request).
 */
export function taskRefetchInterval(query: Pick<Query<TaskAnswer, ApiError>, 'state'>): number | false {
  const { data, status, error, dataUpdateCount } = query.state;
  if (status === 'error') return isEngineAway(error) ? AWAY_POLL_MS : false;
  if (data?.task_status === 2) return false;
  return dataUpdateCount < 30 ? 1000 : 3000;
}

export const getTaskQueryOptions = (taskId: string) =>
  queryOptions<TaskAnswer, ApiError>({
    queryKey: ['task', taskId],
    queryFn: () => getTask(taskId),
    refetchInterval: taskRefetchInterval,
    // Long tasks finish while the tab is hidden, so the gallery is complete when the user comes back.
    refetchIntervalInBackground: true,
    staleTime: Infinity,
  });
