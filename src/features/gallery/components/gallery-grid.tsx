/** The filmstrip of past runs, newest first; the selected one is shown on the stage. */
import { endpointBySlug } from '../../../../contract/index.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { cn } from '../../../lib/cn.ts';
import { formatTime } from '../../../lib/format.ts';
import { useStoredImageUrl } from '../hooks/use-stored-blob.ts';
import { useGalleryStore } from '../stores/gallery-store.ts';
import type { GalleryItem } from '../stores/gallery-store.ts';

export const itemTitle = (item: GalleryItem) => endpointBySlug(item.slug)?.title ?? item.slug;

function Thumb({ item, selected, onSelect }: { item: GalleryItem; selected: boolean; onSelect: () => void }) {
  const url = useStoredImageUrl(item.afters[0]?.key ?? item.before.key);
  const title = itemTitle(item);
  const when = formatTime(item.createdAt);
  const state = item.status === 'pending' ? 'running' : item.status === 'failed' ? 'failed' : undefined;
  return (
    <button
      type="button"
      onClick={onSelect}
      aria-label={`${title}, ${when}${item.afters.length > 1 ? `, ${item.afters.length} results` : ''}${state ? `, ${state}` : ''}`}
      aria-pressed={selected}
      className={cn(
        'group block w-36 shrink-0 rounded-xl p-1.5 text-left transition',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-500',
        selected ? 'bg-white shadow-card ring-2 ring-accent-500' : 'hover:bg-white hover:shadow-card',
      )}
    >
      <span className="bg-checker relative block aspect-[4/3] overflow-hidden rounded-lg ring-1 ring-stone-200">
        {url && <img src={url} alt="" className={cn('size-full object-contain', item.status !== 'done' && 'opacity-50 grayscale')} />}
        {item.status === 'pending' && (
          <span className="absolute inset-0 grid place-items-center">
            <span className="rounded-full bg-white p-1.5 shadow-card">
              <Spinner className="text-accent-600" />
            </span>
          </span>
        )}
        {item.afters.length > 1 && (
          <span className="absolute right-1 top-1 rounded-full bg-stone-900/75 px-1.5 text-[10px] font-semibold leading-4 text-white" title={`${item.afters.length} results`}>
            {item.afters.length}
          </span>
        )}
        {item.status === 'failed' && <span className="absolute bottom-1 left-1 rounded bg-red-600 px-1.5 text-[10px] font-semibold text-white">Failed</span>}
      </span>
      <span className="mt-1.5 block truncate px-0.5 text-xs font-medium text-stone-800">{title}</span>
      <span className="block px-0.5 text-[11px] text-stone-500">{when}</span>
    </button>
  );
}

export function GalleryGrid() {
  const items = useGalleryStore((s) => s.items);
  const selectedId = useGalleryStore((s) => s.selectedId);
  const select = useGalleryStore((s) => s.select);
  if (items.length === 0) return <p className="px-1 py-6 text-[13px] text-stone-400">Nothing here yet. Every run you make is kept here, also after a reload.</p>;
  return (
    <ul aria-label="Gallery items" className="flex gap-2 overflow-x-auto pb-2 pt-1">
      {items.map((item) => (
        <li key={item.id} data-testid="gallery-item" aria-label={`${itemTitle(item)}, ${formatTime(item.createdAt)}`}>
          <Thumb item={item} selected={item.id === selectedId} onSelect={() => select(item.id)} />
        </li>
      ))}
    </ul>
  );
}
