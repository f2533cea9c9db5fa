import type { Health } from '../features/effects/api/get-health.ts';
import { cn } from '../lib/cn.ts';
import { useDevView } from '../lib/dev-view.ts';

const states = {
  ready: { dot: 'bg-emerald-500', text: 'Engine ready' },
  loading: { dot: 'bg-amber-500 animate-pulse', text: 'Engine starting' },
  offline: { dot: 'bg-red-500', text: 'Engine offline' },
  unknown: { dot: 'bg-stone-400', text: 'Engine status unknown' },
} as const;

export function TopBar({ health }: { health: Health | undefined }) {
  const s = health ? states[health.state] : { dot: 'bg-stone-300 animate-pulse', text: 'Connecting…' };
  const unavailable = Object.values(health?.effects ?? {}).filter((v) => v === 'not_available').length;
  const dev = useDevView();
  return (
    <header className="flex h-14 shrink-0 items-center justify-between border-b border-stone-200 bg-white px-5">
      <div className="flex items-center gap-2.5">
        <img src="/favicon.svg" alt="" className="size-7" />
        <span className="text-[15px] font-semibold tracking-tight text-stone-900">Atelier</span>
        <span className="hidden text-[15px] text-stone-600 sm:inline">Studio</span>
      </div>
      <div className="flex items-center gap-4 text-[13px]">
        <span role="status" className="flex items-center gap-2 whitespace-nowrap text-stone-600" title={unavailable ? `${unavailable} effects are not available on this engine` : undefined}>
          <span className={cn('size-2 rounded-full', s.dot)} aria-hidden="true" />
          {s.text}
          {unavailable > 0 && <span className="hidden text-stone-600 md:inline">· {unavailable} not available</span>}
        </span>
        <button
          type="button"
          aria-pressed={dev.on}
          onClick={dev.toggle}
          title="Technical names, the JSON sent and a curl command"
          className={cn('whitespace-nowrap rounded-md px-2 py-1 font-medium', dev.on ? 'bg-stone-900 text-white' : 'text-stone-700 hover:bg-stone-100')}
        >
          Developer view
        </button>
        {dev.on && (
          <a href="/docs" target="_blank" rel="noreferrer" className="hidden whitespace-nowrap font-medium text-stone-700 hover:text-stone-900 sm:inline">
            API docs ↗
          </a>
        )}
      </div>
    </header>
  );
}
