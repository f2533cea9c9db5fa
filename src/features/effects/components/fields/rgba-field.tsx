import type { LipColorsField } from '../../../../../contract/fields.ts';
import { Button } from '../../../../components/ui/button.tsx';
import { useDevView } from '../../../../lib/dev-view.ts';
import { defaultLipColor, lipColorsJson } from '../../utils/form-values.ts';
import type { LipColor } from '../../utils/form-values.ts';

export interface RgbaFieldProps {
  field: LipColorsField;
  value: LipColor[];
  onChange: (value: LipColor[]) => void;
}

/** Lipstick shades to start from; the picker gives any other. */
export const LIP_SWATCHES: readonly { name: string; color: string }[] = [
  { name: 'Classic red', color: '#b0122e' },
  { name: 'Berry', color: '#8a1f4f' },
  { name: 'Plum', color: '#6e2a5a' },
  { name: 'Coral', color: '#e8604c' },
  { name: 'Pink', color: '#e5739a' },
  { name: 'Nude', color: '#b9786a' },
];

/**
 * Up to maxItems colours, each a swatch row, a colour picker and an opacity, and the face it is for (chosen on
 * the photo, see extras/lip-faces.tsx); sent as the JSON string the contract describes.
 */
export function RgbaField({ field, value, onChange }: RgbaFieldProps) {
  // The JSON sent is for developers; the swatches and sliders say the same in plain view.
  const dev = useDevView((s) => s.on);
  const update = (i: number, patch: Partial<LipColor>) => onChange(value.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  return (
    <div className="space-y-2">
      <ul className="space-y-2">
        {value.map((c, i) => (
          <li key={i} className="space-y-2 rounded-lg bg-white px-2.5 py-2 ring-1 ring-inset ring-stone-200">
          <div className="flex items-center gap-3">
            <input
              type="color"
              aria-label={`Colour ${i + 1}`}
              value={c.color}
              onChange={(e) => update(i, { color: e.target.value })}
              className="size-8 shrink-0 cursor-pointer rounded-md border-0 bg-transparent p-0"
            />
            <code className="w-16 font-mono text-xs text-stone-500">{c.color}</code>
            <input
              type="range"
              min={0}
              max={100}
              step={1}
              aria-label={`Opacity of colour ${i + 1}`}
              value={c.opacity}
              onChange={(e) => update(i, { opacity: Number(e.target.value) })}
              className="atelier-range min-w-0 flex-1"
              style={{ ['--fill' as string]: `${c.opacity}%` }}
            />
            <span className="w-10 text-right text-xs tabular-nums text-stone-600">{c.opacity}%</span>
            <Button variant="ghost" size="sm" aria-label={`Remove colour ${i + 1}`} disabled={value.length <= 1} onClick={() => onChange(value.filter((_, j) => j !== i))}>
              <svg className="size-4" viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.7" strokeLinecap="round" aria-hidden="true">
                <path d="M5 5l10 10M15 5 5 15" />
              </svg>
            </Button>
          </div>
          <div className="flex flex-wrap items-center gap-1.5" role="group" aria-label={`Shades for colour ${i + 1}`}>
            {LIP_SWATCHES.map((w) => (
              <button
                key={w.color}
                type="button"
                aria-label={w.name}
                aria-pressed={c.color === w.color}
                title={w.name}
                onClick={() => update(i, { color: w.color })}
                className="size-6 rounded-full ring-1 ring-inset ring-black/10 aria-pressed:ring-2 aria-pressed:ring-stone-900"
                style={{ backgroundColor: w.color }}
              />
            ))}
            <span className="ml-auto text-xs text-stone-500">
              {c.face ? `Face at ${Math.round(c.face.x)}, ${Math.round(c.face.y)}` : 'Largest face'}
            </span>
            {c.face && (
              <Button variant="ghost" size="sm" onClick={() => update(i, { face: undefined })}>
                Any face
              </Button>
            )}
          </div>
          </li>
        ))}
      </ul>
      <div className="flex items-center justify-between gap-3">
        <Button size="sm" disabled={value.length >= field.maxItems} onClick={() => onChange([...value, { ...defaultLipColor }])}>
          Add colour
        </Button>
        <span className="text-xs text-stone-600">
          {value.length} of {field.maxItems} colours
        </span>
      </div>
      {dev && (<details className="text-xs text-stone-500">
        <summary className="cursor-pointer select-none hover:text-stone-700">Sent as</summary>
        <code className="mt-1 block break-all rounded-md bg-stone-100 p-2 font-mono text-[11px] text-stone-700">{lipColorsJson(value)}</code>
      </details>)}
    </div>
  );
}
