/** What happened to the panel's last run: in flight, queued/processing, done, or the envelope's error. */
import { useQuery } from '@tanstack/react-query';
import type { Endpoint } from '../../../../contract/endpoint.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ErrorNotice } from '../../../components/ui/error-notice.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { toShownError } from '../../../lib/api-client.ts';
import { formatSeconds } from '../../../lib/format.ts';
import { getTaskQueryOptions, isEngineAway, taskFailure, taskLabel } from '../api/get-task.ts';
import { useNow } from '../../../lib/use-now.ts';
import type { LastRun } from '../stores/panel-store.ts';

export interface RunStatusProps {
  endpoint: Endpoint;
  pending: boolean;
  error: Error | null;
  lastRun: LastRun | undefined;
  /** Runs again with the same photo and options (shown after an error). */
  onRetry?: () => void;
}

function Progress({ label, since }: { label: string; since: number }) {
  const now = useNow(true);
  return (
    <div role="status" className="space-y-2 rounded-xl bg-white px-3.5 py-3 ring-1 ring-inset ring-stone-200">
      <div className="flex items-center justify-between text-[13px]">
        <span className="flex items-center gap-2 font-medium text-stone-800">
          <Spinner className="text-accent-600" />
          {label}
        </span>
        <span className="tabular-nums text-stone-500">{formatSeconds(Math.max(0, now - since))}</span>
      </div>
      <div className="h-1 overflow-hidden rounded-full bg-stone-100">
        <div className="atelier-indeterminate h-full w-1/3 rounded-full bg-accent-500" />
      </div>
    </div>
  );
}

function TaskStatus({ taskId, since }: { taskId: string; since: number }) {
  // The app's task watcher polls; this only reads the same cache entry.
  const { data, error, failureReason } = useQuery({ ...getTaskQueryOptions(taskId), enabled: false });
  // The engine restarting (also while a failed poll is being retried): the task carries on there, and the watcher asks again.
  if (isEngineAway(error ?? failureReason)) return <Progress label="Waiting for the engine…" since={since} />;
  if (error) return <ErrorNotice error={toShownError(error)} />;
  const failure = taskFailure(data);
  if (failure) return <ErrorNotice error={failure} />;
  if (data?.task_status === 2) {
    return (
      <Notice tone="success" role="status">
        Done. The result is in the gallery.
      </Notice>
    );
  }
  return <Progress label={`${taskLabel(data?.task_status)}…`} since={since} />;
}

export function RunStatus({ endpoint, pending, error, lastRun, onRetry }: RunStatusProps) {
  if (pending) return <Progress label={endpoint.mode === 'async' ? 'Sending…' : 'Processing…'} since={lastRun?.startedAt ?? Date.now()} />;
  if (error) {
    return (
      <div className="space-y-2">
        <ErrorNotice error={toShownError(error)} />
        {onRetry && (
          <Button size="sm" onClick={onRetry}>
            Retry
          </Button>
        )}
      </div>
    );
  }
  if (lastRun?.taskId) return <TaskStatus taskId={lastRun.taskId} since={lastRun.startedAt} />;
  if (lastRun?.finishedAt) {
    return (
      <Notice tone="success" role="status">
        Done in {formatSeconds(lastRun.finishedAt - lastRun.startedAt)}. The result is in the gallery.
      </Notice>
    );
  }
  return null;
}
