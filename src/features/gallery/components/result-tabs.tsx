/**
 * The results of one run as tabs with thumbnails: apparel gives the main cutout and one image per garment
 * class. Apparel results are checked for emptiness, so a class the photo does not show says so instead of
 * looking like a blank picture.
 */
import { cn } from '../../../lib/cn.ts';
import { useBlankCheck } from '../hooks/use-blank-check.ts';
import { useStoredImageUrl } from '../hooks/use-stored-blob.ts';
import type { GalleryItem, StoredImage } from '../stores/gallery-store.ts';
import { resultForm } from '../utils/blank-image.ts';
import { isApparel, requestedClasses, resultLabel } from '../utils/result-labels.ts';

export const NOT_FOUND = 'not found in this photo';

function ResultTab({ item, image, selected, onSelect }: { item: GalleryItem; image: StoredImage; selected: boolean; onSelect: () => void }) {
  const url = useStoredImageUrl(image.key);
  const check = useBlankCheck(image.key, resultForm(item.params.return_form), isApparel(item));
  const blank = check?.blank === true;
  return (
    <button
      type="button"
      role="tab"
      aria-label={blank ? `${resultLabel(item, image)}, ${NOT_FOUND}` : resultLabel(item, image)}
      aria-selected={selected}
      onClick={onSelect}
      data-blank={check ? String(blank) : undefined}
      className={cn(
        'flex min-w-0 shrink-0 items-center gap-2 rounded-xl p-1 pr-3 text-left ring-1 ring-inset transition',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-500',
        selected ? 'bg-white shadow-card ring-2 ring-accent-500' : 'bg-white/70 ring-stone-200 hover:bg-white hover:ring-stone-300',
      )}
    >
      <span className={cn('bg-checker relative grid size-10 shrink-0 place-items-center overflow-hidden rounded-lg ring-1 ring-stone-200', blank && 'opacity-60')}>
        {url && <img src={url} alt="" className="size-full object-contain" />}
        {blank && (
          <svg className="absolute size-4 text-stone-400" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.6" aria-hidden="true">
            <circle cx="8" cy="8" r="6" />
            <path d="M3.8 12.2 12.2 3.8" />
          </svg>
        )}
      </span>
      <span className="min-w-0">
        <span className={cn('block truncate text-[13px] font-medium', blank ? 'text-stone-500' : 'text-stone-900')}>{resultLabel(item, image)}</span>
        {blank && <span className="block whitespace-nowrap text-[11px] leading-4 text-amber-700">{NOT_FOUND}</span>}
      </span>
    </button>
  );
}

export function ResultTabs({ item, selected, onSelect }: { item: GalleryItem; selected: number; onSelect: (index: number) => void }) {
  const returned = new Set(item.afters.map((a) => a.label));
  // A class asked for but absent from the answer is named too, rather than silently missing.
  const missing = isApparel(item) ? requestedClasses(item).filter((c) => !returned.has(c)) : [];
  return (
    <div className="flex min-w-0 flex-wrap items-center gap-1.5">
      {/* One scrolling row on a phone, so the result stays near; wrapped rows where there is room. */}
      <div role="tablist" aria-label="Results" className="flex max-w-full gap-1.5 overflow-x-auto pb-1 sm:flex-wrap sm:overflow-visible sm:pb-0">
        {item.afters.map((a, i) => (
          <ResultTab key={a.key} item={item} image={a} selected={i === selected} onSelect={() => onSelect(i)} />
        ))}
      </div>
      {missing.length > 0 && (
        <p className="text-xs text-amber-800">Not in the answer: {missing.join(', ')}</p>
      )}
    </div>
  );
}
