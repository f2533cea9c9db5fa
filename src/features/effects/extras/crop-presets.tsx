import type { ExtraProps } from './index.ts';

const presets = [
  { label: 'Square', width: 1080, height: 1080 },
  { label: 'Portrait 4:5', width: 1080, height: 1350 },
  { label: 'Story 9:16', width: 1080, height: 1920 },
  { label: 'Wide 16:9', width: 1920, height: 1080 },
] as const;

/** Common target sizes for the smart crop, filling width and height in one click. */
export function CropPresets({ values, setValue }: ExtraProps) {
  return (
    <div className="space-y-2" role="group" aria-label="Size presets">
      <p className="text-[13px] font-semibold text-stone-800">Size presets</p>
      <div className="grid grid-cols-2 gap-1.5">
        {presets.map((p) => {
          const active = values.width === p.width && values.height === p.height;
          return (
            <button
              key={p.label}
              type="button"
              aria-pressed={active}
              onClick={() => {
                setValue('width', p.width);
                setValue('height', p.height);
              }}
              className={`rounded-lg px-3 py-2 text-left ring-1 ring-inset transition ${active ? 'bg-accent-50 ring-accent-300' : 'bg-white ring-stone-200 hover:ring-stone-300'}`}
            >
              <span className="block text-[13px] font-medium text-stone-800">{p.label}</span>
              <span className="block text-xs tabular-nums text-stone-500">
                {p.width}×{p.height}
              </span>
            </button>
          );
        })}
      </div>
    </div>
  );
}
