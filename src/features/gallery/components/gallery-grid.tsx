/**
 * The filmstrip of past runs, newest first; the selected one is shown on the stage. Cards are named by photo
 * and options; the strip filters by effect, scrolls with the wheel, loads thumbnails only when seen (200 items
 * stay quick), and items can be ticked to download (zip), compare or delete, with Undo.
 */
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { endpointBySlug } from '../../../../contract/index.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { cn } from '../../../lib/cn.ts';
import { formatBytes, formatTime } from '../../../lib/format.ts';
import { zipBlobs } from '../../../lib/zip.ts';
import { storedFullSize } from '../utils/stored-full-size.ts';
import { useStoredImageUrl } from '../hooks/use-stored-blob.ts';
import { getBlob } from '../stores/idb-storage.ts';
import { useGalleryStore } from '../stores/gallery-store.ts';
import type { GalleryItem } from '../stores/gallery-store.ts';
import { downloadName, itemCaption, itemTitle } from '../utils/item-names.ts';

export { itemTitle };

/** True once the element has come near the visible part of its scrolling strip. */
function useSeen<T extends Element>() {
  const ref = useRef<T>(null);
  const [seen, setSeen] = useState(typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    if (seen || !ref.current) return;
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setSeen(true), { rootMargin: '0px 400px' });
    io.observe(ref.current);
    return () => io.disconnect();
  }, [seen]);
  return [ref, seen] as const;
}

const stateOf = (item: GalleryItem) =>
  item.status === 'pending' ? 'running' : item.status === 'failed' ? (item.error?.code === 'STUDIO_CANCELLED' ? 'cancelled' : 'failed') : undefined;

/** One card; memoised, so selecting or ticking one of 200 redraws two cards, not all of them. */
const Thumb = memo(function Thumb({ item, selected, checked, picking }: { item: GalleryItem; selected: boolean; checked: boolean; picking: boolean }) {
  const select = useGalleryStore((s) => s.select);
  const toggleChecked = useGalleryStore((s) => s.toggleChecked);
  const onSelect = () => select(item.id);
  const onCheck = () => toggleChecked(item.id);
  const [ref, seen] = useSeen<HTMLSpanElement>();
  const url = useStoredImageUrl(seen ? (item.afters[0]?.key ?? item.before.key) : undefined);
  const title = itemTitle(item);
  const caption = itemCaption(item);
  const when = formatTime(item.createdAt);
  const state = stateOf(item);
  return (
    <div className="relative">
      <button
        type="button"
        onClick={picking ? onCheck : onSelect}
        aria-label={`${title}: ${caption}, ${when}${item.afters.length > 1 ? `, ${item.afters.length} results` : ''}${state ? `, ${state}` : ''}`}
        aria-pressed={picking ? checked : selected}
        className={cn(
          'group block w-40 shrink-0 rounded-xl p-1.5 text-left transition',
          'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-500',
          selected && !picking ? 'bg-white shadow-card ring-2 ring-accent-500' : 'hover:bg-white hover:shadow-card',
          picking && checked && 'bg-accent-50 ring-2 ring-accent-500',
        )}
      >
        <span ref={ref} className="bg-checker relative block aspect-[4/3] overflow-hidden rounded-lg ring-1 ring-stone-200">
          {url && <img src={url} alt="" className={cn('size-full object-contain', item.status !== 'done' && 'opacity-50 grayscale')} />}
          {item.status === 'pending' && (
            <span className="absolute inset-0 grid place-items-center">
              <span className="flex items-center gap-1.5 rounded-full bg-white px-2 py-1 text-[11px] font-medium text-stone-800 shadow-card">
                <Spinner className="text-accent-600" /> Running
              </span>
            </span>
          )}
          {item.afters.length > 1 && (
            <span className="absolute right-1 top-1 rounded-full bg-stone-900/80 px-1.5 text-[10px] font-semibold leading-4 text-white" title={`${item.afters.length} results`}>
              {item.afters.length}
            </span>
          )}
          {item.status === 'failed' && (
            <span className="absolute bottom-1 left-1 rounded bg-red-700 px-1.5 text-[10px] font-semibold text-white">{state === 'cancelled' ? 'Cancelled' : 'Failed'}</span>
          )}
          {picking && (
            <span aria-hidden="true" className={cn('absolute left-1 top-1 grid size-5 place-items-center rounded-md ring-1', checked ? 'bg-accent-600 text-white ring-accent-600' : 'bg-white ring-stone-400')}>
              {checked && '✓'}
            </span>
          )}
        </span>
        <span className="mt-1.5 block truncate px-0.5 text-xs font-medium text-stone-900">{title}</span>
        <span className="block truncate px-0.5 text-[11px] text-stone-600" title={caption}>
          {caption}
        </span>
      </button>
    </div>
  );
});

/** Every image of the given items, named after their photos, in one zip; at the photos' own sizes where they can be. */
async function downloadZip(items: GalleryItem[], name: string) {
  const files: { name: string; blob: Blob }[] = [];
  for (const item of items) {
    for (const a of item.afters) {
      const blob = (await storedFullSize(item, a).catch(() => undefined)) ?? (await getBlob(a.key));
      if (blob) files.push({ name: downloadName(item, a, blob.type), blob });
    }
  }
  if (files.length === 0) return;
  const zip = await zipBlobs(files);
  const href = URL.createObjectURL(zip);
  Object.assign(document.createElement('a'), { href, download: name }).click();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
export { downloadZip };

function UndoBar() {
  const trash = useGalleryStore((s) => s.trash);
  const undo = useGalleryStore((s) => s.undoTrash);
  const purge = useGalleryStore((s) => s.purgeTrash);
  useEffect(() => {
    if (!trash) return;
    const t = setTimeout(() => void purge(), 10_000);
    return () => clearTimeout(t);
  }, [trash, purge]);
  if (!trash) return null;
  const n = trash.items.length;
  return (
    <div role="status" className="flex items-center gap-2 rounded-lg bg-stone-900 px-3 py-1.5 text-[13px] text-white">
      {n === 1 ? `Deleted ${itemTitle(trash.items[0]).toLowerCase()} of ${trash.items[0].before.name ?? 'a photo'}` : `Deleted ${n} items`}
      <button type="button" onClick={undo} className="rounded px-1.5 font-semibold text-accent-200 underline underline-offset-2 hover:text-white">
        Undo
      </button>
    </div>
  );
}

export function GalleryGrid() {
  const items = useGalleryStore((s) => s.items);
  const selectedId = useGalleryStore((s) => s.selectedId);
  const checked = useGalleryStore((s) => s.checked);
  const setChecked = useGalleryStore((s) => s.setChecked);
  const trashItems = useGalleryStore((s) => s.trashItems);
  const setCompare = useGalleryStore((s) => s.setCompare);
  const [filter, setFilter] = useState('');
  const [picking, setPicking] = useState(false);
  const strip = useRef<HTMLUListElement>(null);

  const slugs = useMemo(() => [...new Set(items.map((it) => it.slug))], [items]);
  const shown = useMemo(() => (filter ? items.filter((it) => it.slug === filter) : items), [items, filter]);
  const bytes = useMemo(() => items.reduce((sum, it) => sum + it.before.size + it.afters.reduce((s, a) => s + a.size, 0), 0), [items]);
  const checkedItems = items.filter((it) => checked.includes(it.id));

  // A mouse wheel scrolls the strip sideways (a non-passive listener, so the page does not scroll instead).
  useEffect(() => {
    const el = strip.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      if (Math.abs(e.deltaY) <= Math.abs(e.deltaX) || el.scrollWidth <= el.clientWidth) return;
      e.preventDefault();
      el.scrollLeft += e.deltaY;
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  });

  const stopPicking = () => {
    setPicking(false);
    setChecked([]);
  };

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
        <h3 className="text-[11px] font-semibold uppercase tracking-[0.08em] text-stone-600">
          Gallery {items.length > 0 && <span className="ml-1 font-medium normal-case tracking-normal">{items.length}</span>}
        </h3>
        {items.length > 0 && (
          <>
            <select aria-label="Show effect" value={filter} onChange={(e) => setFilter(e.target.value)} className="h-7 rounded-md bg-white px-1.5 text-[12px] text-stone-800 ring-1 ring-stone-300">
              <option value="">All effects</option>
              {slugs.map((s) => (
                <option key={s} value={s}>
                  {endpointBySlug(s)?.title ?? s}
                </option>
              ))}
            </select>
            <span className="text-[12px] text-stone-600" data-testid="storage-used">
              {formatBytes(bytes)} stored
            </span>
            <div className="ml-auto flex flex-wrap items-center gap-1.5">
              {picking ? (
                <>
                  <span className="text-[12px] text-stone-700">{checked.length} selected</span>
                  <Button size="sm" onClick={() => setChecked(shown.map((it) => it.id))}>
                    All
                  </Button>
                  <Button size="sm" disabled={checkedItems.length === 0} onClick={() => void downloadZip(checkedItems, `atelier-${checkedItems.length}-results.zip`)}>
                    Download selected
                  </Button>
                  <Button
                    size="sm"
                    disabled={checkedItems.length !== 2}
                    title="Tick exactly two to compare them side by side"
                    onClick={() => {
                      setCompare([checkedItems[0].id, checkedItems[1].id]);
                      stopPicking();
                    }}
                  >
                    Compare
                  </Button>
                  <Button size="sm" variant="danger" disabled={checked.length === 0} onClick={() => void trashItems(checked).then(stopPicking)}>
                    Delete selected
                  </Button>
                  <Button size="sm" variant="ghost" onClick={stopPicking}>
                    Done
                  </Button>
                </>
              ) : (
                <>
                  <Button size="sm" variant="ghost" onClick={() => setPicking(true)}>
                    Select
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() => {
                      if (window.confirm(`Delete all ${items.length} items of the gallery? You can undo it for a few seconds.`)) void trashItems(items.map((it) => it.id));
                    }}
                  >
                    Clear all
                  </Button>
                </>
              )}
            </div>
          </>
        )}
        <UndoBar />
      </div>
      {items.length === 0 ? (
        <p className="px-1 py-6 text-[13px] text-stone-600">Nothing here yet. Every run you make is kept here, also after a reload.</p>
      ) : (
        <ul ref={strip} aria-label="Gallery items" className="flex gap-2 overflow-x-auto pb-2 pt-1">
          {shown.map((item) => (
            <li key={item.id} data-testid="gallery-item" aria-label={`${itemTitle(item)}: ${itemCaption(item)}`}>
              <Thumb
                item={item}
                selected={item.id === selectedId}
                checked={checked.includes(item.id)}
                picking={picking}
              />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
