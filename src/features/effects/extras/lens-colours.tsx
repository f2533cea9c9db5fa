/**
 * Coloured contacts: the lens name drawn as common lens colours to pick (each fills `name` with words the
 * engine reads, engine/effects/ai-colored-contacts/lens.ts) above the free-text box, which still takes any
 * colour name or hex code. The description field stays as generated.
 */
import { cn } from '../../../lib/cn.ts';
import type { FieldOverrideProps } from './types.ts';

/** Common lens colours; `color` is how the engine renders that name (lens.ts's eye-colour words). */
export const LENS_SWATCHES: readonly { name: string; color: string }[] = [
  { name: 'Natural light brown', color: '#a0713f' },
  { name: 'Hazel', color: '#8e7136' },
  { name: 'Honey', color: '#b98a3e' },
  { name: 'Green', color: '#4f8a4a' },
  { name: 'Emerald', color: '#2f8a57' },
  { name: 'Grey', color: '#8a949c' },
  { name: 'Blue', color: '#4a7fb5' },
  { name: 'Ocean blue', color: '#2f6f9f' },
  { name: 'Violet', color: '#7a5aa8' },
];

/** An iris-like disc: the colour with a darker limbal ring and a pupil, so the swatch reads as an eye. */
function Iris({ color }: { color: string }) {
  return (
    <span
      aria-hidden="true"
      className="size-7 shrink-0 rounded-full ring-1 ring-inset ring-black/15"
      style={{ background: `radial-gradient(circle, #111 0 22%, ${color} 24% 68%, color-mix(in srgb, ${color} 55%, #000) 86%)` }}
    />
  );
}

export function LensColourField({ id, field, value, onChange, describedBy }: FieldOverrideProps) {
  const text = typeof value === 'string' ? value : '';
  const chosen = text.trim().toLowerCase();
  return (
    <div className="space-y-2">
      <div role="group" aria-label="Lens colours" className="grid grid-cols-3 gap-1.5">
        {LENS_SWATCHES.map((s) => {
          const active = chosen === s.name.toLowerCase();
          return (
            <button
              key={s.name}
              type="button"
              aria-pressed={active}
              onClick={() => onChange(active ? '' : s.name)}
              className={cn(
                'flex items-center gap-2 rounded-lg px-2 py-1.5 text-left text-xs ring-1 ring-inset transition',
                'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-500',
                active ? 'bg-accent-50 text-accent-700 ring-accent-300' : 'bg-white text-stone-700 ring-stone-200 hover:ring-stone-300',
              )}
            >
              <Iris color={s.color} />
              <span className="min-w-0 leading-4">{s.name}</span>
            </button>
          );
        })}
      </div>
      <input
        id={id}
        type="text"
        value={text}
        maxLength={field.kind === 'text' ? field.maxLength : undefined}
        aria-label={`${field.label} (any colour name or hex code)`}
        aria-describedby={describedBy}
        placeholder='Or type any colour: "amber", "sky blue", "#3a7bd5"'
        onChange={(e) => onChange(e.target.value)}
        className="w-full rounded-lg bg-white px-3 py-2 text-sm text-stone-900 ring-1 ring-inset ring-stone-300 placeholder:text-stone-500 focus:outline-none focus:ring-2 focus:ring-accent-500"
      />
    </div>
  );
}
