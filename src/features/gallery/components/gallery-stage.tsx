/**
 * The selected gallery item: before/after comparison (or the photo and the analysis table; for the face
 * analyzer, the photo with the faces' boxes and their attributes), the parameters
 * that were sent, download, the raw JSON answer on demand, and delete.
 */
import { lazy, Suspense, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { endpointBySlug } from '../../../../contract/index.ts';
import { shapeHasValue } from '../../../../contract/result.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ErrorNotice } from '../../../components/ui/error-notice.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { cn } from '../../../lib/cn.ts';
import { formatSeconds, formatTime } from '../../../lib/format.ts';
import { useStoredImageUrl } from '../hooks/use-stored-blob.ts';
import { useGalleryStore } from '../stores/gallery-store.ts';
import type { GalleryItem, StoredImage } from '../stores/gallery-store.ts';
import { Notice } from '../../../components/ui/notice.tsx';
import { useBlankCheck } from '../hooks/use-blank-check.ts';
import { resultForm } from '../utils/blank-image.ts';
import { isRect } from '../utils/crop-overlay.ts';
import type { Rect } from '../utils/crop-overlay.ts';
import type { Placement } from '../utils/locate-crop.ts';
import { isApparel, isClassResult, resultLabel } from '../utils/result-labels.ts';
import { AnalysisView } from './analysis-view.tsx';
import { BeforeAfter, FIT } from './before-after.tsx';
import type { View } from './before-after.tsx';
import { CropView } from './crop-view.tsx';
import { galleryTraits } from './per-effect.tsx';
import { downloadName, extensionOf, itemCaption, itemTitle, photoName } from '../utils/item-names.ts';
import { reencode, useOpaque } from '../utils/reencode.ts';
import { useDevView } from '../../../lib/dev-view.ts';
import { useNow } from '../../../lib/use-now.ts';
import { useStoredBlob } from '../hooks/use-stored-blob.ts';
import { storedFullSize, upsizes } from '../utils/stored-full-size.ts';
import { useCropPlacement } from '../hooks/use-crop-placement.ts';
import { useFaceFocus } from '../hooks/use-face-focus.ts';
import { BackgroundPicker, useViewerPrefs } from './background-picker.tsx';
import { useShallow } from 'zustand/react/shallow';
import { ViewTabs } from './view-tabs.tsx';
import { ResponseView, useStoredJson } from './response-view.tsx';
import { NOT_FOUND, ResultTabs } from './result-tabs.tsx';
import { ResultGrid } from './result-grid.tsx';
import { SegmentedControl } from '../../../components/ui/segmented-control.tsx';

// The cutout editor is its own chunk, fetched when a cutout is first edited: the first load stays small.
const CutoutEditor = lazy(() => import('../../cutout-editor/components/cutout-editor.tsx'));

/** Results the editor can correct: a cutout with its alpha (or a mask), from a background removal. */
const editable = (item: GalleryItem, after: StoredImage | undefined) =>
  item.status === 'done' && !!after && endpointBySlug(item.slug)?.group === 'cutout' && item.params.return_form !== 'whiteBK';

function EditorHost({ item, after, placement, onClose }: { item: GalleryItem; after: StoredImage; placement: Placement | undefined; onClose: () => void }) {
  const original = useStoredBlob(item.original?.key ?? item.before.key);
  const sent = useStoredBlob(item.before.key);
  const result = useStoredBlob(after.key);
  const trimmed = item.params.return_form === 'crop';
  const sources = useMemo(
    () => (original && sent && result && (!trimmed || placement) ? { original, sent, result, form: item.params.return_form === 'mask' ? ('mask' as const) : ('transparent' as const), placement: trimmed ? placement : undefined } : undefined),
    [original, sent, result, trimmed, placement, item.params.return_form],
  );
  const fallback = (
    <p role="status" className="flex items-center gap-2 text-[13px] text-stone-700">
      <Spinner /> Opening the editor…
    </p>
  );
  if (!sources) return fallback;
  return (
    <Suspense fallback={fallback}>
      <CutoutEditor sources={sources} fileName={downloadName(item, after, 'image/png').replace(/\.png$/, '-edited.png')} onClose={onClose} />
    </Suspense>
  );
}

/** What the app lets the stage do with an item (runs belong to the app, not to the gallery). */
export interface StageActions {
  onCancel?: (item: GalleryItem) => void;
  onRetry?: (item: GalleryItem) => void;
  /** "Use this result as the next input": the result becomes the photo of every panel. */
  onUseAsInput?: (item: GalleryItem, image: StoredImage, blob: Blob) => void;
}

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

function PendingOverlay({ item, onCancel }: { item: GalleryItem; onCancel?: () => void }) {
  const now = useNow(true);
  const label = item.taskId ? (item.taskStatus === 1 ? 'Processing' : 'Queued') : 'Processing';
  return (
    // No backdrop blur: with the spinner animating inside it, Chromium without a GPU re-blurs the photo every
    // frame, which took most of a core from the engine on the same machine and doubled the run.
    <div className="absolute inset-0 grid place-items-center bg-white/60">
      <div className="flex items-center gap-3 rounded-full bg-white py-1.5 pl-3.5 pr-1.5 text-[13px] font-medium text-stone-800 shadow-lift">
        <span role="status" className="flex items-center gap-2" data-testid="stage-progress">
          <Spinner className="text-accent-600" />
          {label}… <span className="tabular-nums text-stone-600">{formatSeconds(Math.max(0, now - item.createdAt))}</span>
        </span>
        {onCancel && (
          <Button size="sm" variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
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
        <ViewTabs tabs={[['analysis', 'Analysis'], ['json', 'JSON']] as const} value={tab} onChange={setTab} />
      )}
      <div className="min-h-0 flex-1 overflow-y-auto">
        {tab === 'analysis' ? loaded ? <AnalysisView body={loaded.value} /> : <p className="text-xs text-stone-600">Loading…</p> : <ResponseView responseKey={item.responseKey} />}
      </div>
    </aside>
  );
}

function DownloadMenu({ item, image, url, label, placement }: { item: GalleryItem; image: StoredImage; url: string; label: string | undefined; placement?: Placement }) {
  const blob = useStoredBlob(image.key);
  const [type, setType] = useState(image.type);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  // Opaque results may be saved as JPEG or WebP too; transparent ones keep PNG, which holds the transparency.
  const opaque = useOpaque(blob);
  const name = downloadName(item, image, type);
  // The engine worked on a fitted copy: the download is made again at the photo's own size where the effect allows.
  const upsized = upsizes(item);
  const save = (out: Blob) => {
    const href = URL.createObjectURL(out);
    const a = Object.assign(document.createElement('a'), { href, download: name });
    a.click();
    setTimeout(() => URL.revokeObjectURL(href), 10_000);
  };
  const download = async () => {
    setBusy(true);
    setProblem(undefined);
    try {
      let out: Blob | undefined = blob;
      try {
        out = (await storedFullSize(item, image, placement)) ?? blob;
      } catch (e) {
        setProblem(`The full-size copy could not be made here (${(e as Error).message}); this download is at the engine's size.`);
      }
      if (!out) return;
      save(type === out.type ? out : await reencode(out, type));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="flex items-center">
      <a
        href={url}
        download={name}
        onClick={(e) => {
          if (type === image.type && !upsized) return;
          e.preventDefault();
          if (!busy) void download();
        }}
        aria-label={item.afters.length > 1 ? `Download ${label}` : 'Download'}
        aria-busy={busy || undefined}
        title={`Download ${label?.toLowerCase() ?? 'the result'} as ${name}${upsized ? ", at the photo's own size" : ''}`}
        className="inline-flex h-8 items-center gap-1.5 rounded-l-lg bg-white px-2.5 text-[13px] font-medium text-stone-800 ring-1 ring-inset ring-stone-300 hover:bg-stone-50"
      >
        <svg className="size-4" viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.7" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
          <path d="M10 3.5v9m0 0-3.5-3.5M10 12.5l3.5-3.5M4 15.5h12" />
        </svg>
        {busy ? 'Preparing…' : 'Download'}
      </a>
      <select
        aria-label="Download format"
        data-opaque={opaque === undefined ? undefined : String(opaque)}
        value={type}
        onChange={(e) => setType(e.target.value)}
        className="h-8 rounded-r-lg bg-white pl-1.5 pr-1 text-[12px] text-stone-800 ring-1 ring-inset ring-stone-300 -ml-px"
      >
        {[image.type, 'image/png', 'image/jpeg', 'image/webp']
          .filter((t, i, all) => all.indexOf(t) === i)
          .map((t) => (
            <option key={t} value={t} disabled={t !== image.type && t !== 'image/png' && t !== 'image/webp' && !opaque}>
              {extensionOf(t).toUpperCase()}
            </option>
          ))}
      </select>
      {busy && <span role="status" className="sr-only">Making the full-size copy…</span>}
      {problem && <span role="alert" className="ml-2 max-w-64 text-[12px] text-red-700">{problem}</span>}
    </div>
  );
}

function ItemView({ item, actions }: { item: GalleryItem; actions?: StageActions }) {
  const [resultIndex, setResultIndex] = useState(0);
  // Several apparel results: one at a time (tabs) or all of them large in a grid.
  const [layout, setLayout] = useState<'one' | 'grid'>('one');
  const [showResponse, setShowResponse] = useState(false);
  const [editing, setEditing] = useState(false);
  const trashItems = useGalleryStore((s) => s.trashItems);
  const afterBlob = useStoredBlob(item.afters[Math.min(resultIndex, item.afters.length - 1)]?.key);
  const parent = useGalleryStore((s) => (item.parentId ? s.items.find((it) => it.id === item.parentId) : undefined));
  const after = item.afters[Math.min(resultIndex, item.afters.length - 1)];
  const beforeUrl = useStoredImageUrl(item.before.key);
  const afterUrl = useStoredImageUrl(after?.key);
  const focus = useFaceFocus(item);
  const endpoint = endpointBySlug(item.slug);
  const analysis = endpoint?.group === 'portrait-analysis';
  const AnswerView = item.status === 'done' ? galleryTraits[item.slug]?.AnswerView : undefined;
  const params = Object.entries(item.params);
  const kept = retainLocation(useStoredJson(endpoint && shapeHasValue(endpoint.result.shape, 'retain_location') ? item.responseKey : undefined)?.value);
  const form = resultForm(item.params.return_form);
  const blank = useBlankCheck(after?.key, form, isApparel(item))?.blank === true;
  const label = after ? resultLabel(item, after) : undefined;
  const dev = useDevView((s) => s.on);
  const background = useViewerPrefs((s) => s.background);
  // A trimmed (crop) cutout is placed where it was in the photo, so before and after line up.
  const placement = useCropPlacement(item.params.return_form === 'crop' ? item.before.key : undefined, after?.key);
  const gridable = isApparel(item) && item.status === 'done' && item.afters.length > 1;
  const grid = gridable && layout === 'grid';
  const target = Number(item.params.width) > 0 && Number(item.params.height) > 0 ? { width: Number(item.params.width), height: Number(item.params.height) } : undefined;

  return (
    <section aria-label="Selected result" className="flex h-full min-h-0 flex-col gap-4">
      {/* The actions wrap under the title on a narrow stage rather than squeeze it. */}
      <header className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="min-w-[min(100%,18rem)] flex-1 space-y-1.5">
          <div className="flex items-center gap-2">
            <h2 className="truncate text-base font-semibold text-stone-900">{itemTitle(item)}</h2>
            {item.status === 'pending' && <Badge tone="accent">{item.taskId ? (item.taskStatus === 1 ? 'Processing' : 'Queued') : 'Running'}</Badge>}
            {item.status === 'failed' && <Badge tone="danger">{item.error?.code === 'STUDIO_CANCELLED' ? 'Cancelled' : 'Failed'}</Badge>}
            <span className="whitespace-nowrap text-[13px] text-stone-600">
              {formatTime(item.createdAt)}
              {item.status === 'done' && item.completedAt && ` · took ${formatSeconds(item.completedAt - item.createdAt)}`}
            </span>
          </div>
          <div className="flex flex-wrap items-center gap-1.5">
            <span className="max-w-80 truncate text-[13px] text-stone-700" data-testid="item-caption">{itemCaption(item)}</span>
            {parent && (
              <span className="text-[12px] text-stone-600" data-testid="chain">
                made from {itemTitle(parent).toLowerCase()} of {photoName(parent)}
              </span>
            )}
            {dev &&
              params.map(([k, v]) => (
                <code key={k} className="max-w-64 truncate rounded-md bg-stone-100 px-1.5 py-0.5 font-mono text-[11px] text-stone-700" title={`${k}=${v}`}>
                  {k}={v}
                </code>
              ))}
          </div>
        </div>
        <div className="flex flex-wrap items-center gap-1.5">
          {after && afterUrl && <DownloadMenu item={item} image={after} url={afterUrl} label={label} placement={placement} />}
          {editable(item, after) && !editing && (
            <Button size="sm" variant="primary" onClick={() => setEditing(true)} title="Erase or restore parts, keep one subject, change the background">
              Edit cutout
            </Button>
          )}
          {after && afterBlob && actions?.onUseAsInput && (
            <Button size="sm" onClick={() => actions.onUseAsInput!(item, after, afterBlob)} title="This result becomes the photo of every effect; the next run is kept as its follow-up">
              Use as next input
            </Button>
          )}
          {item.status === 'failed' && actions?.onRetry && (
            <Button size="sm" variant="primary" onClick={() => actions.onRetry!(item)}>
              Retry
            </Button>
          )}
          {!analysis && (
            <Button size="sm" aria-pressed={showResponse} onClick={() => setShowResponse((v) => !v)}>
              {showResponse ? 'Hide response' : 'Response'}
            </Button>
          )}
          <Button size="sm" variant="danger" onClick={() => void trashItems([item.id])}>
            Delete
          </Button>
        </div>
      </header>

      <div className="flex flex-wrap items-center justify-between gap-2">
        {gridable && (
          <div className="w-full sm:w-auto">
            <SegmentedControl
              label="Show results"
              options={[
                { value: 'one', label: 'One at a time' },
                { value: 'grid', label: `All ${item.afters.length} large` },
              ]}
              value={layout}
              onChange={setLayout}
            />
          </div>
        )}
        {!AnswerView && !grid && item.afters.length > 1 ? <ResultTabs item={item} selected={item.afters.indexOf(after)} onSelect={setResultIndex} /> : !gridable && <span />}
        {item.status === 'done' && after && !AnswerView && !editing && <BackgroundPicker />}
      </div>

      {blank && after && !grid && (
        <Notice tone="warning" role="status" title={`${label}: ${NOT_FOUND}`}>
          The engine returned {formLabel[form]} for this {isClassResult(item, after) ? 'class' : 'cutout'}: nothing of it was found in the photo. The empty image is kept and can still be downloaded.
        </Notice>
      )}

      {item.error && <ErrorNotice error={item.error} />}

      {/* Side by side only where the stage is wide enough; otherwise the details go under the image. */}
      <div className="@container flex min-h-0 flex-1 flex-col">
        {AnswerView ? (
          <AnswerView item={item} photoUrl={beforeUrl} />
        ) : (
        <div className={cn('flex min-h-0 flex-1 flex-col gap-5', analysis ? '@2xl:flex-row' : '@4xl:flex-row')}>
        <div className="min-h-[240px] min-w-0 flex-1">
          {editing && after && editable(item, after) ? (
            <EditorHost item={item} after={after} placement={placement} onClose={() => setEditing(false)} />
          ) : grid ? (
            <ResultGrid
              item={item}
              onOpen={(i) => {
                setResultIndex(i);
                setLayout('one');
              }}
            />
          ) : item.status === 'done' && after && kept ? (
            <CropView beforeUrl={beforeUrl} afterUrl={afterUrl} retain={kept} target={target} />
          ) : item.status === 'done' && after ? (
            <BeforeAfter key={after.key} beforeUrl={beforeUrl} afterUrl={afterUrl} afterLabel={item.afters.length > 1 ? label : 'After'} placement={placement} background={background} focus={focus} />
          ) : (
            <PhotoOnly url={beforeUrl} overlay={item.status === 'pending' ? <PendingOverlay item={item} onCancel={actions?.onCancel && (() => actions.onCancel!(item))} /> : undefined} />
          )}
        </div>
        {(analysis || showResponse) && <Inspector item={item} analysis={analysis} />}
        </div>
        )}
      </div>
    </section>
  );
}

interface Aligned {
  view: View;
  onViewChange: (view: View) => void;
  position: number;
  onPositionChange: (position: number) => void;
}

/** One side of a comparison: its result over its own photo, zoomed, panned and divided as the other side is. */
function ComparePane({ item, aligned }: { item: GalleryItem; aligned: Aligned }) {
  const after = item.afters[0];
  const beforeUrl = useStoredImageUrl(item.before.key);
  const afterUrl = useStoredImageUrl(after?.key);
  const background = useViewerPrefs((s) => s.background);
  const endpoint = endpointBySlug(item.slug);
  // A trimmed cutout is placed where it was in the photo; a crop over the window it was taken from.
  const trimmed = useCropPlacement(item.params.return_form === 'crop' ? item.before.key : undefined, after?.key);
  const kept = retainLocation(useStoredJson(endpoint && shapeHasValue(endpoint.result.shape, 'retain_location') ? item.responseKey : undefined)?.value);
  const label = after ? resultLabel(item, after) : undefined;
  return (
    <figure aria-label={`${itemTitle(item)}: ${itemCaption(item)}`} className="flex min-h-[260px] min-w-0 flex-1 flex-col gap-2">
      <div className="relative min-h-0 flex-1">
        {item.status === 'done' && after ? (
          <BeforeAfter beforeUrl={beforeUrl} afterUrl={afterUrl} afterLabel={label === 'Result' ? 'After' : label} placement={trimmed ?? kept} background={background} {...aligned} />
        ) : (
          <PhotoOnly url={beforeUrl} />
        )}
      </div>
      <figcaption className="text-[13px] text-stone-700">
        <span className="font-semibold text-stone-900">{itemTitle(item)}</span> · {itemCaption(item)}
        {item.afters.length > 1 && label && <span className="text-stone-600"> · {label.toLowerCase()} shown</span>}
      </figcaption>
    </figure>
  );
}

/**
 * Two results side by side, each over its own photo (left of the divider: before), on the same background.
 * Zoom, pan and the divider are shared, so both show the same part of their pictures.
 */
function CompareView({ ids }: { ids: [string, string] }) {
  const items = useGalleryStore(useShallow((s) => ids.map((id) => s.items.find((it) => it.id === id))));
  const setCompare = useGalleryStore((s) => s.setCompare);
  const [view, setView] = useState<View>(FIT);
  const [position, setPosition] = useState(50);
  if (!items[0] || !items[1]) return null;
  const aligned: Aligned = { view, onViewChange: setView, position, onPositionChange: setPosition };
  return (
    <section aria-label="Comparison" className="flex h-full min-h-0 flex-col gap-3">
      <header className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 className="text-base font-semibold text-stone-900">Comparing two results</h2>
          <p className="text-[13px] text-stone-600">Zoom, pan and the divider move both; left of the divider each shows its own photo.</p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <BackgroundPicker />
          <Button size="sm" onClick={() => setCompare(null)}>
            Close comparison
          </Button>
        </div>
      </header>
      <div className="flex min-h-0 flex-1 flex-col gap-4 sm:flex-row">
        <ComparePane item={items[0]} aligned={aligned} />
        <ComparePane item={items[1]} aligned={aligned} />
      </div>
    </section>
  );
}

export function GalleryStage({ actions }: { actions?: StageActions }) {
  const compare = useGalleryStore((s) => s.compare);
  const item = useGalleryStore((s) => s.items.find((it) => it.id === s.selectedId));
  if (compare) return <CompareView ids={compare} />;
  if (!item) {
    return (
      <div className="grid h-full place-items-center">
        <div className="max-w-sm text-center">
          <div className="bg-checker mx-auto mb-4 h-24 w-32 rounded-xl ring-1 ring-stone-200" aria-hidden="true" />
          <p className="text-[15px] font-medium text-stone-800">Results appear here</p>
          <p className="mt-1 text-[13px] leading-5 text-stone-600">Pick an effect, add a photo and press Run. You can compare the result with the original, download it, and find it again after a reload.</p>
        </div>
      </div>
    );
  }
  return <ItemView key={item.id} item={item} actions={actions} />;
}
