/**
 * Polls every pending async task of the gallery, whichever panel is open (and again after a reload, since
 * tasks are kept 24 hours), and completes or fails the gallery item when task_status reaches 2. While the
 * engine is away (stopped, restarting) the item stays pending and polling goes on: the engine keeps queued
 * tasks and may finish them meanwhile.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { getTaskQueryOptions, isEngineAway, taskFailure } from '../features/effects/api/get-task.ts';
import { useGalleryStore } from '../features/gallery/stores/gallery-store.ts';
import type { GalleryItem } from '../features/gallery/stores/gallery-store.ts';
import { studioCodes, toShownError } from '../lib/api-client.ts';
import { endpoints } from '../../contract/index.ts';
import { loadResultBlobs, resultSources } from '../lib/results.ts';

function PendingTask({ item, taskId }: { item: GalleryItem; taskId: string }) {
  const { data, error } = useQuery(getTaskQueryOptions(taskId));
  const { updateItem, completeItem, failItem } = useGalleryStore.getState();
  const settling = useRef(false);

  useEffect(() => {
    if (data && data.task_status !== 2 && data.task_status !== item.taskStatus) updateItem(item.id, { taskStatus: data.task_status });
  }, [data, item.id, item.taskStatus, updateItem]);

  useEffect(() => {
    if (settling.current) return;
    if (error && isEngineAway(error)) return;
    if (error) {
      settling.current = true;
      void failItem(item.id, toShownError(error), error.body);
      return;
    }
    if (data?.task_status !== 2) return;
    settling.current = true;
    const failure = taskFailure(data);
    if (failure) {
      void failItem(item.id, failure, data);
      return;
    }
    loadResultBlobs(resultSources(endpoints.queryAsyncTaskResult.result, data))
      .then((blobs) =>
        blobs.length > 0
          ? completeItem(item.id, blobs, data)
          : failItem(item.id, { code: studioCodes.result, code_message: 'No result in the answer', message: 'The task finished without result_urls.' }, data),
      )
      .catch((e: unknown) => failItem(item.id, toShownError(e), data));
  }, [data, error, item.id, completeItem, failItem]);

  return null;
}

export function TaskWatcher() {
  const pending = useGalleryStore(useShallow((s) => s.items.filter((it) => it.status === 'pending' && it.taskId)));
  return (
    <>
      {pending.map((it) => (
        <PendingTask key={it.id} item={it} taskId={it.taskId!} />
      ))}
    </>
  );
}
