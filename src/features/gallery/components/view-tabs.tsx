/** The stage's switch between an answer's readable view and its raw JSON. */
import { cn } from '../../../lib/cn.ts';

export function ViewTabs<T extends string>({ tabs, value, onChange }: { tabs: readonly (readonly [T, string])[]; value: T; onChange: (tab: T) => void }) {
  return (
    <div className="flex gap-1" role="tablist" aria-label="Response view">
      {tabs.map(([t, label]) => (
        <button
          key={t}
          type="button"
          role="tab"
          aria-selected={value === t}
          onClick={() => onChange(t)}
          className={cn('rounded-md px-2.5 py-1 text-[13px] font-medium', value === t ? 'bg-stone-900 text-white' : 'text-stone-600 hover:bg-stone-100')}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
