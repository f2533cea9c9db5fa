/**
 * Where the effects feature meets the gallery. A run puts a placeholder in the gallery at once (selected, so
 * the stage shows the photo with its progress); the answer completes it, an async submit hands it to the task
 * watcher, a failure or a cancel marks it failed with Retry.
 */
import { endpointBySlug } from '../../contract/index.ts';
import { performRun } from '../features/effects/api/run-effect.ts';
import type { RunHooks, RunRecord, StartedRun } from '../features/effects/api/run-effect.ts';
import { chainParentOf, originalOf } from '../features/effects/stores/panel-store.ts';
import { getBlob } from '../features/gallery/stores/idb-storage.ts';
import { useGalleryStore } from '../features/gallery/stores/gallery-store.ts';
import type { GalleryItem } from '../features/gallery/stores/gallery-store.ts';
import { studioCodes, toShownError } from '../lib/api-client.ts';

/** Run id (gallery item id) → how to abort its request. */
const cancels = new Map<string, () => void>();

const photoOf = (input: StartedRun['input']) => {
  const entry = Object.entries(input.images).find(([n]) => n === 'image') ?? Object.entries(input.images)[0];
  return entry ? { field: entry[0], file: entry[1] } : undefined;
};

export async function startRun({ endpoint, input, cancel }: StartedRun): Promise<string | undefined> {
  const photo = photoOf(input);
  if (!photo) return undefined;
  const { addItem, select } = useGalleryStore.getState();
  const item = await addItem({
    slug: endpoint.slug,
    params: input.params,
    before: photo.file,
    original: originalOf(photo.file),
    afters: [],
    response: null,
    status: 'pending',
    imageField: photo.field,
    parentId: chainParentOf(photo.file),
  });
  cancels.set(item.id, cancel);
  select(item.id);
  // On a phone the stage sits under the form: bring the running photo into view.
  if (typeof window !== 'undefined' && window.innerWidth < 1024) document.getElementById('gallery-title')?.parentElement?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
  return item.id;
}

export async function recordRun({ endpoint, input, outcome, runId }: RunRecord): Promise<void> {
  const store = useGalleryStore.getState();
  if (runId) {
    cancels.delete(runId);
    if (outcome.mode === 'sync') await store.completeItem(runId, outcome.results, outcome.response);
    else await store.attachTask(runId, outcome.taskId, outcome.response);
    return;
  }
  const photo = photoOf(input);
  if (!photo) return;
  const item = await store.addItem({
    slug: endpoint.slug,
    params: input.params,
    before: photo.file,
    original: originalOf(photo.file),
    afters: outcome.mode === 'sync' ? outcome.results : [],
    response: outcome.response,
    status: outcome.mode === 'sync' ? 'done' : 'pending',
    taskId: outcome.mode === 'async' ? outcome.taskId : undefined,
    imageField: photo.field,
  });
  store.select(item.id);
}

export async function failRun(runId: string | undefined, error: Error): Promise<void> {
  if (!runId) return;
  cancels.delete(runId);
  await useGalleryStore.getState().failItem(runId, toShownError(error), (error as { body?: unknown }).body);
}

export const runHooks: RunHooks = { onStart: startRun, onRecord: recordRun, onFail: failRun };

/** Aborts the request of a run still being sent; false once the engine has answered it. */
export function abortRequest(runId: string): boolean {
  const cancel = cancels.get(runId);
  cancel?.();
  return cancel !== undefined;
}

/** Cancel: aborts a request in flight; for a submitted task, stops waiting for it (the engine may still finish it). */
export function cancelRun(item: GalleryItem): void {
  const cancel = cancels.get(item.id);
  if (cancel) return cancel();
  if (item.status === 'pending') {
    void useGalleryStore.getState().failItem(item.id, {
      code: studioCodes.cancelled,
      code_message: 'Cancelled',
      message: 'You stopped waiting for this task. Retry runs it again.',
    });
  }
}

/** Runs a gallery item again with the same photo and options, as a new item. */
export async function retryRun(item: GalleryItem): Promise<void> {
  const endpoint = endpointBySlug(item.slug);
  const blob = await getBlob(item.before.key);
  if (!endpoint || !blob) return;
  const file = new File([blob], item.before.name ?? 'photo', { type: item.before.type });
  await performRun(endpoint, { params: item.params, images: { [item.imageField ?? 'image']: file } }, runHooks).catch(() => undefined);
}
