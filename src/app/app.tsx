/**
 * The studio: effects on the left, the generated panel of the chosen effect, and the gallery (stage and
 * filmstrip) on the right. Features meet only here: runs go to the gallery (record-run.ts), photos dropped or
 * pasted anywhere go to the open panel, several at once to a batch.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { endpointBySlug } from '../../contract/index.ts';
import type { Endpoint } from '../../contract/endpoint.ts';
import { isAvailable, useHealth } from '../features/effects/api/get-health.ts';
import { EffectNav, EffectSelect, panelEndpoints } from '../features/effects/components/effect-nav.tsx';
import { EffectPanel } from '../features/effects/components/effect-panel.tsx';
import { givePhoto, usePanelStore } from '../features/effects/stores/panel-store.ts';
import { GalleryGrid } from '../features/gallery/components/gallery-grid.tsx';
import { GalleryStage } from '../features/gallery/components/gallery-stage.tsx';
import type { StageActions } from '../features/gallery/components/gallery-stage.tsx';
import { useGalleryStore } from '../features/gallery/stores/gallery-store.ts';
import { ImageDropzone } from '../features/upload/components/image-dropzone.tsx';
import { BatchPanel } from './batch-panel.tsx';
import { runBatch } from './batch.ts';
import { EngineDownBanner, StorageFullBanner } from './engine-down.tsx';
import { cancelRun, retryRun, runHooks } from './record-run.ts';
import { TaskWatcher } from './task-watcher.tsx';
import { TopBar } from './top-bar.tsx';
import { useHashSlug } from './use-hash-slug.ts';

const slugs = panelEndpoints.map((e) => e.slug);

const stageActions: StageActions = {
  onCancel: cancelRun,
  onRetry: (item) => void retryRun(item),
  onUseAsInput: (item, image, blob) => {
    const base = (item.before.name ?? 'photo').replace(/\.[^.]+$/, '');
    const ext = blob.type === 'image/jpeg' ? 'jpg' : blob.type === 'image/webp' ? 'webp' : 'png';
    const word = image.label.toLowerCase() === 'result' || image.label.toLowerCase() === 'after' ? 'result' : image.label.toLowerCase().replace(/\s+/g, '-');
    usePanelStore.getState().takeAsInput(new File([blob], `${base}-${word}.${ext}`, { type: blob.type }), item.id);
  },
};

const onBatch = (endpoint: Endpoint, files: File[]) => void runBatch(endpoint, files);

/** Median time of the effect's last five finished runs here, for the panel's "Takes about 2.3 s here". */
function useTypicalTime(slug: string): number | undefined {
  const items = useGalleryStore((s) => s.items);
  return useMemo(() => {
    const times = items
      .filter((it) => it.slug === slug && it.status === 'done' && it.completedAt && !it.taskId)
      .slice(0, 5)
      .map((it) => it.completedAt! - it.createdAt)
      .sort((a, b) => a - b);
    return times.length ? times[Math.floor(times.length / 2)] : undefined;
  }, [items, slug]);
}

const imagesOf = (list: FileList | DataTransferItemList | undefined | null): File[] => {
  if (!list) return [];
  const files = 'item' in list && list instanceof DataTransferItemList ? [...list].map((i) => i.getAsFile()).filter((f): f is File => !!f) : [...(list as FileList)];
  return files.filter((f) => f.type.startsWith('image/') || f.type === '' || /\.(heic|heif)$/i.test(f.name));
};

/** Photos dropped anywhere or pasted: one goes to the open panel, several to a batch. */
function usePhotosAnywhere(endpoint: Endpoint) {
  const [dragging, setDragging] = useState(false);
  useEffect(() => {
    const take = (files: File[]) => {
      if (files.length > 1) onBatch(endpoint, files);
      else if (files[0]) givePhoto(endpoint, files[0]);
    };
    const hasFiles = (e: DragEvent) => [...(e.dataTransfer?.types ?? [])].includes('Files');
    const onDragOver = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      setDragging(true);
    };
    const onDragLeave = (e: DragEvent) => {
      if (!e.relatedTarget) setDragging(false);
    };
    const onDrop = (e: DragEvent) => {
      setDragging(false);
      // The panel's own drop box handles its drops. Listened to in the capture phase: react-dropzone's
      // document listener prevents the default of every drop outside its box.
      if (!hasFiles(e) || (e.target instanceof Element && e.target.closest('[data-dropzone]'))) return;
      e.preventDefault();
      take(imagesOf(e.dataTransfer?.files));
    };
    const onPaste = (e: ClipboardEvent) => {
      const files = imagesOf(e.clipboardData?.files);
      if (files.length === 0) return;
      e.preventDefault();
      take(files);
    };
    window.addEventListener('dragover', onDragOver);
    window.addEventListener('dragleave', onDragLeave);
    window.addEventListener('drop', onDrop, true);
    window.addEventListener('paste', onPaste);
    return () => {
      window.removeEventListener('dragover', onDragOver);
      window.removeEventListener('dragleave', onDragLeave);
      window.removeEventListener('drop', onDrop, true);
      window.removeEventListener('paste', onPaste);
    };
  }, [endpoint]);
  return dragging;
}

/**
 * Another effect chosen: the stage shows that effect's latest result, or none, rather than the previous
 * effect's result under the new panel.
 */
function useStageFollowsEffect(slug: string) {
  const previous = useRef(slug);
  useEffect(() => {
    if (previous.current === slug) return;
    previous.current = slug;
    const { items, selectedId, select } = useGalleryStore.getState();
    if (items.find((it) => it.id === selectedId)?.slug === slug) return;
    select(items.find((it) => it.slug === slug)?.id ?? null);
  }, [slug]);
}

export function App() {
  const slug = useHashSlug(slugs, slugs[0]);
  const endpoint = endpointBySlug(slug)!;
  const { data: health, refetch, isFetching } = useHealth();
  const available = (s: string) => isAvailable(health, s);
  // The engine stopped: the studio stays (the gallery lives in this browser), with a banner and no runs.
  const offline = health?.state === 'offline';
  const typicalMs = useTypicalTime(slug);
  const dragging = usePhotosAnywhere(endpoint);
  useStageFollowsEffect(slug);

  return (
    <div className="flex h-dvh flex-col bg-canvas">
      <a href="#main" className="sr-only z-50 rounded-md bg-white px-3 py-2 text-sm font-medium text-accent-800 shadow-lift focus:not-sr-only focus:fixed focus:left-3 focus:top-3">
        Skip to the effect
      </a>
      <TopBar health={health} />
      {offline && <EngineDownBanner onRetry={() => void refetch()} checking={isFetching} />}
      {health?.storageFull && <StorageFullBanner />}
      <div className="flex min-h-0 flex-1 flex-col overflow-y-auto lg:flex-row lg:overflow-hidden">
        <div className="border-b border-stone-200 bg-white px-6 py-4 lg:hidden">
          <EffectSelect current={slug} isAvailable={available} />
        </div>
        <aside className="hidden shrink-0 px-2.5 py-5 lg:block lg:w-60 lg:overflow-y-auto lg:border-r lg:border-stone-200 xl:w-[268px]">
          <EffectNav current={slug} isAvailable={available} />
        </aside>
        <main id="main" tabIndex={-1} className="flex min-w-0 flex-1 flex-col outline-none lg:flex-row lg:overflow-hidden">
          <div className="shrink-0 border-b border-stone-200 bg-white lg:w-[380px] lg:border-b-0 lg:border-r xl:w-[420px]">
            <EffectPanel key={slug} endpoint={endpoint} available={available(slug)} engineDown={offline} ImageInput={ImageDropzone} hooks={runHooks} typicalMs={typicalMs} onBatch={onBatch} />
          </div>
          {/* Below the form on a phone: as tall as the window under the top bar, so a result brought into view fills it. */}
          <section aria-labelledby="gallery-title" className="flex min-h-[max(640px,calc(100dvh-3.5rem))] min-w-0 flex-1 flex-col lg:min-h-0">
            <h2 id="gallery-title" className="sr-only">
              Gallery
            </h2>
            <div className="flex min-h-0 flex-1 flex-col gap-3 px-4 pb-4 pt-5 sm:px-6">
              <BatchPanel />
              {/* Scrolls inside itself when tall results (many apparel classes) meet a short window, never over the strip. */}
              <div className="min-h-0 flex-1 overflow-y-auto">
                <GalleryStage actions={stageActions} />
              </div>
            </div>
            <div className="border-t border-stone-200 bg-stone-50/60 px-4 pb-2 pt-3 sm:px-6">
              <GalleryGrid />
            </div>
          </section>
        </main>
      </div>
      {dragging && (
        <div className="pointer-events-none fixed inset-0 z-40 grid place-items-center bg-accent-50/80 ring-4 ring-inset ring-accent-500" aria-hidden="true">
          <p className="rounded-xl bg-white px-5 py-3 text-[15px] font-medium text-accent-800 shadow-lift">Drop photos anywhere: one goes to {endpoint.title.toLowerCase()}, several run as a batch</p>
        </div>
      )}
      <TaskWatcher />
    </div>
  );
}
