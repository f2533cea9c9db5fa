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
  /** What onStart answered for this run (the app: its placeholder in the gallery). */
  runId?: string;
}

export interface StartedRun {
  endpoint: Endpoint;
  input: Serialized;
  /** Aborts the request; the run then fails with studioCodes.cancelled. */
  cancel: () => void;
}

/** Where a run is followed from outside the panel: started (placeholder shown), recorded, or failed. */
export interface RunHooks {
  onStart?: (run: StartedRun) => Promise<string | undefined> | string | undefined;
  onRecord?: (record: RunRecord) => void | Promise<void>;
  onFail?: (runId: string | undefined, error: Error) => void | Promise<void>;
}

export const cancelledError = () =>
  new ApiError(0, { code: studioCodes.cancelled, code_message: 'Cancelled', message: 'You cancelled this run; nothing was kept. Retry runs it again.' });

const noResult = (endpoint: Endpoint, body: unknown) =>
  new ApiError(200, { code: studioCodes.result, code_message: 'No result in the answer', message: `${endpoint.title} answered without the result the contract describes.` }, undefined, body);

export async function runEffect(endpoint: Endpoint, input: Serialized, signal?: AbortSignal): Promise<RunOutcome> {
  const body = await apiRequest<Record<string, unknown>>(endpoint.path, { method: endpoint.method, body: buildFormData(input), signal });
  if (endpoint.mode === 'async') {
    if (typeof body.task_id !== 'string' || !body.task_id) throw noResult(endpoint, body);
    return { mode: 'async', response: body as unknown as TaskSubmitted, taskId: body.task_id };
  }
  const sources = resultSources(endpoint.result, body);
  if (sources.length === 0 && imageLeaves(endpoint.result.shape).some((l) => l.from === 'image')) throw noResult(endpoint, body);
  return { mode: 'sync', response: body, results: await loadResultBlobs(sources) };
}

/** One run from start to record: the panel's mutation and the stage's Retry both go through here. */
export async function performRun(endpoint: Endpoint, input: Serialized, hooks: RunHooks = {}): Promise<RunOutcome> {
  const controller = new AbortController();
  const runId = (await hooks.onStart?.({ endpoint, input, cancel: () => controller.abort() })) ?? undefined;
  let outcome: RunOutcome;
  try {
    outcome = await runEffect(endpoint, input, controller.signal);
  } catch (e) {
    const error = controller.signal.aborted ? cancelledError() : e instanceof Error ? e : new Error(String(e));
    await hooks.onFail?.(runId, error);
    throw error;
  }
  await hooks.onRecord?.({ endpoint, input, outcome, runId });
  return outcome;
}

export function useRunEffect(endpoint: Endpoint, hooks: RunHooks = {}) {
  const setLastRun = usePanelStore((s) => s.setLastRun);
  return useMutation<RunOutcome, Error, Serialized, { startedAt: number }>({
    mutationKey: ['run-effect', endpoint.slug],
    // Recorded inside the mutation function, which goes on when the panel has been left before the answer came.
    mutationFn: (input) => performRun(endpoint, input, hooks),
    onMutate: () => {
      const startedAt = Date.now();
      setLastRun(endpoint.slug, { startedAt });
      return { startedAt };
    },
    onSuccess: (outcome, _input, context) => {
      const startedAt = context?.startedAt ?? Date.now();
      setLastRun(endpoint.slug, outcome.mode === 'async' ? { startedAt, taskId: outcome.taskId } : { startedAt, finishedAt: Date.now() });
    },
  });
}
