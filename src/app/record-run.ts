/**
 * Where the effects feature meets the gallery: a finished sync run, or a submitted async task, becomes a
 * gallery item (selected, so the stage shows it at once).
 */
import type { RunRecord } from '../features/effects/api/run-effect.ts';
import { useGalleryStore } from '../features/gallery/stores/gallery-store.ts';

export async function recordRun({ endpoint, input, outcome }: RunRecord): Promise<void> {
  const before = input.images.image ?? Object.values(input.images)[0];
  if (!before) return;
  const { addItem, select } = useGalleryStore.getState();
  const item = await addItem({
    slug: endpoint.slug,
    params: input.params,
    before,
    afters: outcome.mode === 'sync' ? outcome.results : [],
    response: outcome.response,
    status: outcome.mode === 'sync' ? 'done' : 'pending',
    taskId: outcome.mode === 'async' ? outcome.taskId : undefined,
  });
  select(item.id);
}
