import { cn } from '../../lib/cn.ts';

export function ToggleChip({ pressed, onChange, children }: { pressed: boolean; onChange: (pressed: boolean) => void; children: string }) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      onClick={() => onChange(!pressed)}
      className={cn(
        'inline-flex h-7 items-center gap-1.5 rounded-full px-3 text-[13px] font-medium ring-1 ring-inset transition',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-500',
        pressed ? 'bg-accent-600 text-white ring-accent-600' : 'bg-white text-stone-600 ring-stone-300 hover:ring-stone-400 hover:text-stone-900',
      )}
    >
      {pressed && (
        <svg className="size-3.5" viewBox="0 0 16 16" fill="none" aria-hidden="true">
          <path d="m3.5 8.5 3 3 6-7" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      )}
      {children}
    </button>
  );
}
