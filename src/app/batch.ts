/**
 * Several photos at once: each is checked against the effect's limits, fitted in the browser where needed,
 * and run in turn with the panel's options; every run is a gallery item, and the queue shows each file's state.
 * Stop sends nothing more and aborts the request being sent; tasks the engine already accepted run on.
 */
import { create } from 'zustand';
import type { Endpoint } from '../../contract/endpoint.ts';
import { performRun } from '../features/effects/api/run-effect.ts';
import { linkOriginal, panelParams, photoField, usePanelStore } from '../features/effects/stores/panel-store.ts';
import { limitProblems } from '../features/upload/utils/check-limits.ts';
import { canFitHere, fitToLimits, planFit } from '../features/upload/utils/fit-to-limits.ts';
import { raiseLimits } from '../features/upload/utils/raised-limits.ts';
import { raisedImageLimits } from '../features/effects/api/get-health.ts';
import { measureImage } from '../features/upload/utils/measure-image.ts';
import { toShownError } from '../lib/api-client.ts';
import { newId } from '../lib/format.ts';
import { abortRequest, runHooks } from './record-run.ts';

export type BatchFileState = 'waiting' | 'fitting' | 'running' | 'done' | 'failed' | 'stopped';

export interface BatchFile {
  id: string;
  name: string;
  state: BatchFileState;
  startedAt?: number;
  finishedAt?: number;
  /** The gallery item of its run. */
  itemId?: string;
  note?: string;
  error?: string;
}

interface BatchState {
  slug: string | null;
  title: string;
  files: BatchFile[];
  /** Counts batches, so that a stop reaches only the batch shown. */
  run: number;
  stoppedRun: number;
  update: (id: string, patch: Partial<BatchFile>) => void;
  stop: () => void;
  clear: () => void;
}

export const useBatch = create<BatchState>()((set, get) => ({
  slug: null,
  title: '',
  files: [],
  run: 0,
  stoppedRun: 0,
  update: (id, patch) => set((s) => ({ files: s.files.map((f) => (f.id === id ? { ...f, ...patch } : f)) })),
  stop: () => {
    const { files, run } = get();
    set({ stoppedRun: run, files: files.map((f) => (f.state === 'waiting' ? { ...f, state: 'stopped' } : f)) });
    for (const f of files) if (f.itemId && (f.state === 'fitting' || f.state === 'running')) abortRequest(f.itemId);
  },
  clear: () => set({ slug: null, title: '', files: [] }),
}));

export async function runBatch(endpoint: Endpoint, photos: File[]): Promise<void> {
  const field = photoField(endpoint);
  if (!field) return;
  const own = endpoint.fields[field].kind === 'image' ? endpoint.fields[field].limits : undefined;
  if (!own) return;
  const limits = raiseLimits(own, raisedImageLimits());
  const params = panelParams(endpoint);
  const queue = photos.map((file) => ({ file, entry: { id: newId(), name: file.name, state: 'waiting' as BatchFileState } }));
  const run = useBatch.getState().run + 1;
  useBatch.setState({ slug: endpoint.slug, title: endpoint.title, files: queue.map((q) => q.entry), run });
  const stopped = () => useBatch.getState().stoppedRun === run;
  usePanelStore.getState().markBatchStarted(endpoint.slug);
  const { update } = useBatch.getState();
  // One at a time: the engine queues anyway, and the first results come back sooner.
  for (const { file, entry } of queue) {
    if (stopped()) break;
    update(entry.id, { state: 'fitting', startedAt: Date.now() });
    try {
      let photo = file;
      const measured = await measureImage(file);
      const problems = limitProblems(measured, limits, endpoint.title);
      if (problems.length > 0) {
        const plan = canFitHere() ? planFit(measured, limits) : null;
        if (!plan) throw new Error(problems.join(' '));
        const fitted = await fitToLimits(file, measured, limits, plan);
        photo = fitted.file;
        linkOriginal(file, photo);
        update(entry.id, { note: fitted.note });
      }
      if (stopped()) {
        update(entry.id, { state: 'stopped', finishedAt: Date.now() });
        break;
      }
      update(entry.id, { state: 'running' });
      await performRun(endpoint, { params, images: { [field]: photo } }, {
        ...runHooks,
        onStart: async (run) => {
          const itemId = await runHooks.onStart?.(run);
          update(entry.id, { itemId });
          // Stopped while the gallery item was being made: its request must not go out.
          if (stopped()) run.cancel();
          return itemId;
        },
      });
      update(entry.id, { state: 'done', finishedAt: Date.now() });
    } catch (e) {
      update(entry.id, { state: 'failed', finishedAt: Date.now(), error: toShownError(e).message });
    }
  }
}
