import type { KeyboardEvent } from 'react';
import { cn } from '../../lib/cn.ts';

export interface SegmentOption<V> {
  value: V;
  label: string;
}

export interface SegmentedControlProps<V> {
  label: string;
  options: SegmentOption<V>[];
  value: V;
  onChange: (value: V) => void;
  describedBy?: string;
}

/** A radio group drawn as joined buttons; arrow keys move the choice, as in a native radio group. */
export function SegmentedControl<V>({ label, options, value, onChange, describedBy }: SegmentedControlProps<V>) {
  const index = Math.max(0, options.findIndex((o) => o.value === value));
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : 0;
    if (!step) return;
    e.preventDefault();
    const next = (index + step + options.length) % options.length;
    onChange(options[next].value);
    (e.currentTarget.querySelectorAll('[role="radio"]')[next] as HTMLElement | undefined)?.focus();
  };
  return (
    <div
      role="radiogroup"
      aria-label={label}
      aria-describedby={describedBy}
      onKeyDown={onKeyDown}
      // Wraps into a second row rather than cut a label short.
      className="flex w-full flex-wrap gap-y-0.5 rounded-lg bg-stone-100 p-0.5 ring-1 ring-inset ring-stone-200"
    >
      {options.map((o, i) => {
        const active = i === index;
        return (
          <button
            key={String(o.value ?? '')}
            type="button"
            role="radio"
            aria-checked={active}
            tabIndex={active ? 0 : -1}
            onClick={() => onChange(o.value)}
            className={cn(
              'h-8 flex-auto whitespace-nowrap rounded-md px-2.5 text-[13px] font-medium transition',
              'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent-500',
              active ? 'bg-white text-stone-900 shadow-sm ring-1 ring-stone-200' : 'text-stone-600 hover:text-stone-900',
            )}
          >
            {o.label}
          </button>
        );
      })}
    </div>
  );
}
