/**
 * Smart crop sizes in one click: aspect ratios (the photo's own resolution) and exact social sizes. They only
 * fill the contract's width and height fields, which stay editable below for a custom size.
 */
import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../lib/cn.ts';
import { useImageSize } from '../hooks/use-image-size.ts';
import { aspectPresets, hasAspect, ratioLabel, sizeForAspect, socialPresets } from '../utils/crop-sizes.ts';
import type { Size } from '../utils/crop-sizes.ts';
import type { ExtraProps } from './types.ts';

/** A small outline of the shape, so 4:5 and 9:16 can be told apart at a glance. */
function Shape({ width, height }: Size) {
  const k = 18 / Math.max(width, height);
  return (
    <span className="grid size-5 shrink-0 place-items-center" aria-hidden="true">
      <span className="block rounded-[2px] border-[1.5px] border-current" style={{ width: Math.max(6, width * k), height: Math.max(6, height * k) }} />
    </span>
  );
}

function PresetButton({ active, onClick, children, label }: { active: boolean; onClick: () => void; children: ReactNode; label: string }) {
  return (
    <button
      type="button"
      aria-pressed={active}
      aria-label={label}
      onClick={onClick}
      className={cn(
        'flex items-center gap-2 rounded-lg px-2.5 py-1.5 text-left ring-1 ring-inset transition',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-500',
        active ? 'bg-accent-50 text-accent-700 ring-accent-300' : 'bg-white text-stone-500 ring-stone-200 hover:text-stone-700 hover:ring-stone-300',
      )}
    >
      {children}
    </button>
  );
}

export function CropPresets({ values, setValue }: ExtraProps) {
  const photo = useImageSize(values.image instanceof File ? values.image : undefined);
  const width = typeof values.width === 'number' ? values.width : undefined;
  const height = typeof values.height === 'number' ? values.height : undefined;
  const set = (s: Size) => {
    setValue('width', s.width);
    setValue('height', s.height);
  };
  const current = width && height ? { width, height } : undefined;

  return (
    <div className="space-y-4" role="group" aria-label="Size presets">
      <div className="space-y-2">
        <div className="flex items-baseline justify-between gap-3">
          <p className="text-[13px] font-semibold text-stone-800">Aspect ratio</p>
          <p className="text-xs text-stone-600">{photo ? `from the ${photo.width}×${photo.height} photo` : '1080 px short side'}</p>
        </div>
        <div className="grid grid-cols-5 gap-1.5">
          {aspectPresets.map((p) => {
            const size = sizeForAspect(p, photo);
            return (
              <PresetButton key={p.label} label={`${p.label} ${p.hint}, ${size.width}×${size.height}`} active={hasAspect({ width, height }, p)} onClick={() => set(size)}>
                <span className="flex min-w-0 flex-col items-center gap-1 py-0.5 w-full">
                  <Shape width={p.a} height={p.b} />
                  <span className="text-[12.5px] font-semibold tabular-nums text-stone-800">{p.label}</span>
                </span>
              </PresetButton>
            );
          })}
        </div>
        <p className="text-xs leading-5 text-stone-500">An aspect keeps the photo’s resolution: the largest window of that shape, not scaled.</p>
      </div>

      <div className="space-y-2">
        <p className="text-[13px] font-semibold text-stone-800">Social sizes</p>
        <div className="grid grid-cols-2 gap-1.5">
          {socialPresets.map((p) => (
            <PresetButton key={p.label} label={`${p.label}, ${p.width}×${p.height}`} active={width === p.width && height === p.height} onClick={() => set(p)}>
              <Shape width={p.width} height={p.height} />
              <span className="min-w-0">
                <span className="block truncate text-[13px] font-medium text-stone-800">{p.label}</span>
                <span className="block text-xs tabular-nums text-stone-500">
                  {p.width}×{p.height}
                </span>
              </span>
            </PresetButton>
          ))}
        </div>
        <p className="text-xs leading-5 text-stone-500">Scaled to exactly these pixels. Any other size: set width and height above.</p>
      </div>

      <div className="flex items-center justify-between gap-3 rounded-lg bg-stone-50 px-3 py-2 ring-1 ring-inset ring-stone-200">
        <p className="text-[13px] text-stone-600" aria-live="polite">
          {current ? (
            <>
              Output <span className="font-semibold tabular-nums text-stone-900">{current.width}×{current.height} px</span>
              <span className="text-stone-600"> · {ratioLabel(current)}</span>
            </>
          ) : (
            'Set a width and a height, or pick a preset.'
          )}
        </p>
        <Button size="sm" variant="ghost" disabled={!current || current.width === current.height} onClick={() => current && set({ width: current.height, height: current.width })}>
          Swap
        </Button>
      </div>
    </div>
  );
}
