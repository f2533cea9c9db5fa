/**
 * The studio: effects on the left, the generated panel of the chosen effect, and the gallery (stage and
 * filmstrip) on the right. Features meet only here.
 */
import { endpointBySlug } from '../../contract/index.ts';
import { isAvailable, useHealth } from '../features/effects/api/get-health.ts';
import { EffectNav, EffectSelect, panelEndpoints } from '../features/effects/components/effect-nav.tsx';
import { EffectPanel } from '../features/effects/components/effect-panel.tsx';
import { GalleryGrid } from '../features/gallery/components/gallery-grid.tsx';
import { GalleryStage } from '../features/gallery/components/gallery-stage.tsx';
import { useGalleryStore } from '../features/gallery/stores/gallery-store.ts';
import { ImageDropzone } from '../features/upload/components/image-dropzone.tsx';
import { recordRun } from './record-run.ts';
import { TaskWatcher } from './task-watcher.tsx';
import { TopBar } from './top-bar.tsx';
import { useHashSlug } from './use-hash-slug.ts';

const slugs = panelEndpoints.map((e) => e.slug);

export function App() {
  const slug = useHashSlug(slugs, slugs[0]);
  const endpoint = endpointBySlug(slug)!;
  const { data: health } = useHealth();
  const available = (s: string) => isAvailable(health, s);
  const count = useGalleryStore((s) => s.items.length);

  return (
    <div className="flex h-dvh flex-col bg-canvas">
      <TopBar health={health} />
      <div className="flex min-h-0 flex-1 flex-col overflow-y-auto lg:flex-row lg:overflow-hidden">
        <div className="border-b border-stone-200 bg-white px-6 py-4 lg:hidden">
          <EffectSelect current={slug} isAvailable={available} />
        </div>
        <aside className="hidden shrink-0 px-2.5 py-5 lg:block lg:w-60 lg:overflow-y-auto lg:border-r lg:border-stone-200 xl:w-[268px]">
          <EffectNav current={slug} isAvailable={available} />
        </aside>

        <div className="shrink-0 border-b border-stone-200 bg-white lg:w-[380px] xl:w-[420px] lg:border-b-0 lg:border-r">
          <EffectPanel key={slug} endpoint={endpoint} available={available(slug)} ImageInput={ImageDropzone} onRecord={recordRun} />
        </div>

        <section aria-labelledby="gallery-title" className="flex min-h-[640px] min-w-0 flex-1 flex-col lg:min-h-0">
          <h2 id="gallery-title" className="sr-only">
            Gallery
          </h2>
          <div className="min-h-0 flex-1 px-6 pb-4 pt-5">
            <GalleryStage />
          </div>
          <div className="border-t border-stone-200 bg-stone-50/60 px-6 pb-2 pt-3">
            <p className="text-[11px] font-semibold uppercase tracking-[0.08em] text-stone-400" aria-hidden="true">
              Gallery {count > 0 && <span className="ml-1 font-medium normal-case tracking-normal text-stone-400">{count}</span>}
            </p>
            <GalleryGrid />
          </div>
        </section>
      </div>
      <TaskWatcher />
    </div>
  );
}
