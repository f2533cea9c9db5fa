/**
 * Apparel background removal: out_mode drawn as two explained choices instead of a bare 0/1 switch, and a
 * line saying which images a run will give (the main cutout, then one per garment class).
 */
import type { KeyboardEvent } from 'react';
import { cn } from '../../../lib/cn.ts';
import { useDevView } from '../../../lib/dev-view.ts';
import { asStrings } from '../utils/form-values.ts';
import type { ExtraProps, FieldOverrideProps } from './types.ts';

export const outModes = [
  { on: false, sent: '0', title: 'All clothing', detail: 'The main cutout keeps every garment the person wears.' },
  { on: true, sent: '1', title: 'Only the selected classes', detail: 'The main cutout keeps only the garment classes chosen below.' },
] as const;

/** out_mode: 0 or 1, kept as the panel's flag value (false/true) so it is sent exactly as the switch would. */
export function OutModeChoice({ id, field, value, onChange, describedBy }: FieldOverrideProps) {
  const dev = useDevView((s) => s.on);
  const current = value === true || value === 1;
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'].includes(e.key)) return;
    e.preventDefault();
    onChange(!current);
    (e.currentTarget.querySelectorAll<HTMLElement>('[role="radio"]')[current ? 0 : 1])?.focus();
  };
  return (
    <div id={id} role="radiogroup" aria-label={field.label} aria-describedby={describedBy} onKeyDown={onKeyDown} className="grid gap-1.5">
      {outModes.map((m) => {
        const active = m.on === current;
        return (
          <button
            key={m.sent}
            type="button"
            role="radio"
            aria-checked={active}
            tabIndex={active ? 0 : -1}
            onClick={() => onChange(m.on)}
            className={cn(
              'flex items-start gap-3 rounded-lg px-3 py-2.5 text-left ring-1 ring-inset transition',
              'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-500',
              active ? 'bg-accent-50 ring-accent-300' : 'bg-white ring-stone-200 hover:ring-stone-300',
            )}
          >
            <span
              aria-hidden="true"
              className={cn('mt-0.5 grid size-4 shrink-0 place-items-center rounded-full ring-1 ring-inset', active ? 'bg-accent-600 ring-accent-600' : 'bg-white ring-stone-300')}
            >
              {active && <span className="size-1.5 rounded-full bg-white" />}
            </span>
            <span className="min-w-0 flex-1">
              <span className="block text-[13px] font-medium text-stone-900">{m.title}</span>
              <span className="block text-xs leading-5 text-stone-600">{m.detail}</span>
            </span>
            {dev && <code className="shrink-0 font-mono text-[11px] text-stone-600">{m.sent}</code>}
          </button>
        );
      })}
    </div>
  );
}

/** What a run will give: one main cutout, then one image per requested class. */
export function ApparelSummary({ endpoint, values }: ExtraProps) {
  const field = endpoint.fields.cloth_class;
  const fallback = field?.kind === 'csv-set' ? (field.default ?? []) : [];
  const chosen = asStrings(values.cloth_class);
  const classes = chosen.length > 0 ? chosen : [...fallback];
  const only = values.out_mode === true || values.out_mode === 1;
  const main = only ? `the selected classes together` : 'all the clothing';
  return (
    <div role="note" aria-label="Results of a run" className="rounded-xl bg-stone-50 px-3.5 py-3 text-[13px] leading-5 text-stone-600 ring-1 ring-inset ring-stone-200">
      <p>
        <span className="font-semibold text-stone-800">{classes.length + 1} results:</span> one cutout of {main}, then one per class
        {classes.length > 0 && <> ({classes.join(', ')})</>}. A class the photo does not show comes back empty and is marked as not found.
      </p>
      {chosen.length === 0 && fallback.length > 0 && (
        <p className="mt-1 text-amber-800">No class chosen: the engine uses its default, {fallback.join(', ')}.</p>
      )}
    </div>
  );
}
