/**
 * Every result of a run at once (apparel: the main cutout and each garment class), each large enough to
 * inspect, on the chosen background; a click opens that one in the before/after viewer.
 */
import { cn } from '../../../lib/cn.ts';
import { useBlankCheck } from '../hooks/use-blank-check.ts';
import { useStoredImageUrl } from '../hooks/use-stored-blob.ts';
import type { GalleryItem, StoredImage } from '../stores/gallery-store.ts';
import { resultForm } from '../utils/blank-image.ts';
import { isApparel, resultLabel } from '../utils/result-labels.ts';
import { backgroundStyle, useViewerPrefs } from './background-picker.tsx';
import { NOT_FOUND } from './result-tabs.tsx';

function GridCell({ item, image, onOpen }: { item: GalleryItem; image: StoredImage; onOpen: () => void }) {
  const url = useStoredImageUrl(image.key);
  const blank = useBlankCheck(image.key, resultForm(item.params.return_form), isApparel(item))?.blank === true;
  const background = backgroundStyle(useViewerPrefs((s) => s.background));
  const label = resultLabel(item, image);
  return (
    <li className="min-w-0">
      <button
        type="button"
        onClick={onOpen}
        aria-label={`Open ${label}${blank ? `, ${NOT_FOUND}` : ''}`}
        title={`Open ${label.toLowerCase()} with the photo beside it`}
        data-blank={blank ? 'true' : undefined}
        className={cn(
          'block w-full rounded-xl bg-white p-2 text-left ring-1 ring-stone-200 transition hover:shadow-card hover:ring-stone-300',
          'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-500',
        )}
      >
        {/* Tall enough to see a garment's edge; the image keeps its shape inside. */}
        <span className={cn('relative block h-[clamp(240px,40vh,480px)] overflow-hidden rounded-lg ring-1 ring-stone-200', background.className, blank && 'opacity-60')} style={background.style}>
          {url && <img src={url} alt="" draggable={false} className="absolute inset-0 size-full object-contain" data-testid="grid-image" />}
        </span>
        <span className="mt-2 flex flex-wrap items-baseline justify-between gap-x-2 px-0.5">
          <span className="text-[13px] font-medium text-stone-900">{label}</span>
          {blank && <span className="text-[12px] text-amber-800">{NOT_FOUND}</span>}
        </span>
      </button>
    </li>
  );
}

export function ResultGrid({ item, onOpen }: { item: GalleryItem; onOpen: (index: number) => void }) {
  return (
    <ul aria-label="All results" className="grid grid-cols-[repeat(auto-fill,minmax(min(100%,260px),1fr))] gap-3 pb-1" data-testid="result-grid">
      {item.afters.map((a, i) => (
        <GridCell key={a.key} item={item} image={a} onOpen={() => onOpen(i)} />
      ))}
    </ul>
  );
}
