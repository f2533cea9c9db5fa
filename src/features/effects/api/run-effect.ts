/**
 * Running an effect: the fetcher posts the FormData built from the contract; useRunEffect wraps it in a
 * mutation that records the outcome (through the app's onRecord) in useMutation's own onSuccess, which still
 * fires when the panel has been left before the answer came.
 */
import { useMutation } from '@tanstack/react-query';
import type { Endpoint } from '../../../../contract/endpoint.ts';
import type { TaskSubmitted } from '../../../../contract/envelope.ts';
import { imageLeaves } from '../../../../contract/result.ts';
import { ApiError, apiRequest, studioCodes } from '../../../lib/api-client.ts';
import { loadResultBlobs, resultSources } from '../../../lib/results.ts';
import type { ResultBlob } from '../../../lib/results.ts';
import { usePanelStore } from '../stores/panel-store.ts';
import { buildFormData } from '../utils/form-values.ts';
import type { Serialized } from '../utils/form-values.ts';

export type RunOutcome =
  | { mode: 'sync'; response: unknown; results: ResultBlob[] }
  | { mode: 'async'; response: TaskSubmitted; taskId: string };

export interface RunRecord {
  endpoint: Endpoint;
  input: Serialized;
  outcome: RunOutcome;
}

const noResult = (endpoint: Endpoint, body: unknown) =>
  new ApiError(200, { code: studioCodes.result, code_message: 'No result in the answer', message: `${endpoint.title} answered without the result the contract describes.` }, undefined, body);

export async function runEffect(endpoint: Endpoint, input: Serialized): Promise<RunOutcome> {
  const body = await apiRequest<Record<string, unknown>>(endpoint.path, { method: endpoint.method, body: buildFormData(input) });
  if (endpoint.mode === 'async') {
    if (typeof body.task_id !== 'string' || !body.task_id) throw noResult(endpoint, body);
    return { mode: 'async', response: body as unknown as TaskSubmitted, taskId: body.task_id };
  }
  const sources = resultSources(endpoint.result, body);
  if (sources.length === 0 && imageLeaves(endpoint.result.shape).some((l) => l.from === 'image')) throw noResult(endpoint, body);
  return { mode: 'sync', response: body, results: await loadResultBlobs(sources) };
}

export function useRunEffect(endpoint: Endpoint, onRecord?: (record: RunRecord) => void | Promise<void>) {
  const setLastRun = usePanelStore((s) => s.setLastRun);
  return useMutation<RunOutcome, Error, Serialized, { startedAt: number }>({
    mutationKey: ['run-effect', endpoint.slug],
    mutationFn: (input) => runEffect(endpoint, input),
    onMutate: () => {
      const startedAt = Date.now();
      setLastRun(endpoint.slug, { startedAt });
      return { startedAt };
    },
    onSuccess: async (outcome, input, context) => {
      const startedAt = context?.startedAt ?? Date.now();
      setLastRun(endpoint.slug, outcome.mode === 'async' ? { startedAt, taskId: outcome.taskId } : { startedAt, finishedAt: Date.now() });
      await onRecord?.({ endpoint, input, outcome });
    },
  });
}
