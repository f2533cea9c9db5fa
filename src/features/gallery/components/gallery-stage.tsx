/**
 * The selected gallery item: before/after comparison (or the photo and the analysis table; for the face
 * analyzer, the photo with the faces' boxes and their attributes), the parameters
 * that were sent, download, the raw JSON answer on demand, and delete.
 */
import { useState } from 'react';
import type { ReactNode } from 'react';
import { endpointBySlug } from '../../../../contract/index.ts';
import { shapeHasValue } from '../../../../contract/result.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ErrorNotice } from '../../../components/ui/error-notice.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { cn } from '../../../lib/cn.ts';
import { formatTime } from '../../../lib/format.ts';
import { useStoredImageUrl } from '../hooks/use-stored-blob.ts';
import { useGalleryStore } from '../stores/gallery-store.ts';
import type { GalleryItem, StoredImage } from '../stores/gallery-store.ts';
import { Notice } from '../../../components/ui/notice.tsx';
import { useBlankCheck } from '../hooks/use-blank-check.ts';
import { resultForm } from '../utils/blank-image.ts';
import { isRect } from '../utils/crop-overlay.ts';
import type { Rect } from '../utils/crop-overlay.ts';
import { isApparel, isClassResult, resultLabel } from '../utils/result-labels.ts';
import { AnalysisView } from './analysis-view.tsx';
import { BeforeAfter } from './before-after.tsx';
import { CropView } from './crop-view.tsx';
import { FaceAnalysisView } from './face-analysis-view.tsx';
import { SkinReportView } from './skin-report-view.tsx';
import { itemTitle } from './gallery-grid.tsx';
import { ResponseView, useStoredJson } from './response-view.tsx';
import { NOT_FOUND, ResultTabs } from './result-tabs.tsx';

const extension = (type: string) => ({ 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/bmp': 'bmp' })[type] ?? 'bin';

const downloadName = (item: GalleryItem, image: StoredImage) =>
  `${item.slug}-${image.label.replace(/\s+/g, '-').toLowerCase()}-${new Date(item.createdAt).toISOString().slice(0, 19).replace(/[:T]/g, '')}.${extension(image.type)}`;

/** Smart crop answers where the kept window lies in the original (input pixels). */
function retainLocation(body: unknown): Rect | undefined {
  const loc = (body as { data?: { retain_location?: unknown } } | undefined)?.data?.retain_location;
  return isRect(loc) ? loc : undefined;
}

const formLabel = { transparent: 'a fully transparent image', mask: 'an all-black mask', whiteBK: 'a plain white image' } as const;

function PhotoOnly({ url, overlay }: { url: string | undefined; overlay?: ReactNode }) {
  return (
    <div className="grid size-full place-items-center">
      <div className="relative max-h-full max-w-full overflow-hidden rounded-lg shadow-lift">
        {url && <img src={url} alt="Before" className="block max-h-[min(60vh,640px)] max-w-full object-contain" />}
        {overlay}
      </div>
    </div>
  );
}

function PendingOverlay({ item }: { item: GalleryItem }) {
  return (
    <div className="absolute inset-0 grid place-items-center bg-white/60 backdrop-blur-[2px]" role="status">
      <span className="flex items-center gap-2 rounded-full bg-white px-3.5 py-2 text-[13px] font-medium text-stone-800 shadow-lift">
        <Spinner className="text-accent-600" />
        {item.taskStatus === 1 ? 'Processing…' : 'Queued…'}
      </span>
    </div>
  );
}

function Inspector({ item, analysis }: { item: GalleryItem; analysis: boolean }) {
  const [tab, setTab] = useState<'analysis' | 'json'>(analysis ? 'analysis' : 'json');
  const loaded = useStoredJson(tab === 'analysis' ? item.responseKey : undefined);
  return (
    <aside
      aria-label="Response details"
      className={cn(
        'flex max-h-[45%] min-h-0 w-full flex-col gap-3',
        analysis ? '@2xl:max-h-none @2xl:w-[min(400px,48%)]' : '@4xl:max-h-none @4xl:w-[min(400px,45%)]',
      )}
    >
      {analysis && (
        <div className="flex gap-1" role="tablist" aria-label="Response view">
          {(['analysis', 'json'] as const).map((t) => (
            <button
              key={t}
              role="tab"
              aria-selected={tab === t}
              onClick={() => setTab(t)}
              className={cn('rounded-md px-2.5 py-1 text-[13px] font-medium', tab === t ? 'bg-stone-900 text-white' : 'text-stone-600 hover:bg-stone-100')}
            >
              {t === 'analysis' ? 'Analysis' : 'JSON'}
            </button>
          ))}
        </div>
      )}
      <div className="min-h-0 flex-1 overflow-y-auto">
        {tab === 'analysis' ? loaded ? <AnalysisView body={loaded.value} /> : <p className="text-xs text-stone-400">Loading…</p> : <ResponseView responseKey={item.responseKey} />}
      </div>
    </aside>
  );
}

/** Face analyzer answers get their own view: boxes on the photo, the faces' attributes in words. */
function FaceAnalysisItem({ item, photoUrl }: { item: GalleryItem; photoUrl: string | undefined }) {
  const loaded = useStoredJson(item.responseKey);
  return <FaceAnalysisView photoUrl={photoUrl} body={loaded?.value} loading={!loaded} requested={item.params.face_attributes_type} responseKey={item.responseKey} />;
}

/** Skin analysis answers get a report: marks and maps on the photo, every code in words. */
function SkinReportItem({ item, photoUrl }: { item: GalleryItem; photoUrl: string | undefined }) {
  const loaded = useStoredJson(item.responseKey);
  return <SkinReportView photoUrl={photoUrl} body={loaded?.value} loading={!loaded} maps={item.afters} responseKey={item.responseKey} />;
}

function ItemView({ item }: { item: GalleryItem }) {
  const [resultIndex, setResultIndex] = useState(0);
  const [showResponse, setShowResponse] = useState(false);
  const removeItem = useGalleryStore((s) => s.removeItem);
  const after = item.afters[Math.min(resultIndex, item.afters.length - 1)];
  const beforeUrl = useStoredImageUrl(item.before.key);
  const afterUrl = useStoredImageUrl(after?.key);
  const endpoint = endpointBySlug(item.slug);
  const analysis = endpoint?.group === 'portrait-analysis';
  const faces = item.slug === 'face-analyzer' && item.status === 'done';
  const skin = item.slug === 'skin-analysis-advanced' && item.status === 'done';
  const params = Object.entries(item.params);
  const kept = retainLocation(useStoredJson(endpoint && shapeHasValue(endpoint.result.shape, 'retain_location') ? item.responseKey : undefined)?.value);
  const form = resultForm(item.params.return_form);
  const blank = useBlankCheck(after?.key, form, isApparel(item))?.blank === true;
  const label = after ? resultLabel(item, after) : undefined;
  const target = Number(item.params.width) > 0 && Number(item.params.height) > 0 ? { width: Number(item.params.width), height: Number(item.params.height) } : undefined;

  return (
    <section aria-label="Selected result" className="flex h-full min-h-0 flex-col gap-4">
      {/* The actions wrap under the title on a narrow stage rather than squeeze it. */}
      <header className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="min-w-[min(100%,18rem)] flex-1 space-y-1.5">
          <div className="flex items-center gap-2">
            <h2 className="truncate text-base font-semibold text-stone-900">{itemTitle(item)}</h2>
            {item.status === 'pending' && <Badge tone="accent">{item.taskStatus === 1 ? 'Processing' : 'Queued'}</Badge>}
            {item.status === 'failed' && <Badge tone="danger">Failed</Badge>}
            <span className="whitespace-nowrap text-[13px] text-stone-500">{formatTime(item.createdAt)}</span>
          </div>
          <div className="flex flex-wrap gap-1.5">
            {item.before.name && <span className="max-w-56 truncate rounded-md bg-stone-100 px-1.5 py-0.5 text-[11px] text-stone-600">{item.before.name}</span>}
            {params.map(([k, v]) => (
              <code key={k} className="max-w-64 truncate rounded-md bg-stone-100 px-1.5 py-0.5 font-mono text-[11px] text-stone-600" title={`${k}=${v}`}>
                {k}={v}
              </code>
            ))}
          </div>
        </div>
        <div className="flex shrink-0 items-center gap-1.5">
          {after && afterUrl && (
            <a
              href={afterUrl}
              download={downloadName(item, after)}
              aria-label={item.afters.length > 1 ? `Download ${label}` : 'Download'}
              title={`Download ${label?.toLowerCase() ?? 'the result'} as ${downloadName(item, after)}`}
              className="inline-flex h-8 items-center gap-1.5 rounded-lg bg-white px-2.5 text-[13px] font-medium text-stone-800 ring-1 ring-inset ring-stone-300 hover:bg-stone-50"
            >
              <svg className="size-4" viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.7" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
                <path d="M10 3.5v9m0 0-3.5-3.5M10 12.5l3.5-3.5M4 15.5h12" />
              </svg>
              Download
            </a>
          )}
          {!analysis && (
            <Button size="sm" aria-pressed={showResponse} onClick={() => setShowResponse((v) => !v)}>
              {showResponse ? 'Hide response' : 'Response'}
            </Button>
          )}
          <Button size="sm" variant="danger" onClick={() => void removeItem(item.id)}>
            Delete
          </Button>
        </div>
      </header>

      {!skin && item.afters.length > 1 && <ResultTabs item={item} selected={item.afters.indexOf(after)} onSelect={setResultIndex} />}

      {blank && after && (
        <Notice tone="warning" role="status" title={`${label}: ${NOT_FOUND}`}>
          The engine returned {formLabel[form]} for this {isClassResult(item, after) ? 'class' : 'cutout'}: nothing of it was found in the photo. The empty image is kept and can still be downloaded.
        </Notice>
      )}

      {item.error && <ErrorNotice error={item.error} />}

      {/* Side by side only where the stage is wide enough; otherwise the details go under the image. */}
      <div className="@container flex min-h-0 flex-1 flex-col">
        {faces ? (
          <FaceAnalysisItem item={item} photoUrl={beforeUrl} />
        ) : skin ? (
          <SkinReportItem item={item} photoUrl={beforeUrl} />
        ) : (
        <div className={cn('flex min-h-0 flex-1 flex-col gap-5', analysis ? '@2xl:flex-row' : '@4xl:flex-row')}>
        <div className="min-h-[240px] min-w-0 flex-1">
          {item.status === 'done' && after && kept ? (
            <CropView beforeUrl={beforeUrl} afterUrl={afterUrl} retain={kept} target={target} />
          ) : item.status === 'done' && after ? (
            <BeforeAfter key={after.key} beforeUrl={beforeUrl} afterUrl={afterUrl} afterLabel={item.afters.length > 1 ? label : 'After'} />
          ) : (
            <PhotoOnly url={beforeUrl} overlay={item.status === 'pending' ? <PendingOverlay item={item} /> : undefined} />
          )}
        </div>
        {(analysis || showResponse) && <Inspector item={item} analysis={analysis} />}
        </div>
        )}
      </div>
    </section>
  );
}

export function GalleryStage() {
  const item = useGalleryStore((s) => s.items.find((it) => it.id === s.selectedId));
  if (!item) {
    return (
      <div className="grid h-full place-items-center">
        <div className="max-w-sm text-center">
          <div className="bg-checker mx-auto mb-4 h-24 w-32 rounded-xl ring-1 ring-stone-200" aria-hidden="true" />
          <p className="text-[15px] font-medium text-stone-800">Results appear here</p>
          <p className="mt-1 text-[13px] leading-5 text-stone-500">Pick an effect, add a photo and press Run. You can compare the result with the original, download it, and find it again after a reload.</p>
        </div>
      </div>
    );
  }
  return <ItemView key={item.id} item={item} />;
}
