/**
 * Before/after comparison: the result is laid over the photo and revealed right of a divider that follows the
 * pointer and the keyboard (role="slider"). Transparent results sit on a checkerboard.
 */
import { useRef, useState } from 'react';
import type { KeyboardEvent, PointerEvent } from 'react';

export interface BeforeAfterProps {
  beforeUrl: string | undefined;
  afterUrl: string | undefined;
  afterLabel?: string;
  /** 0..100, the share of the width that shows the photo. */
  initial?: number;
}

const clamp = (n: number) => Math.min(100, Math.max(0, n));

export function BeforeAfter({ beforeUrl, afterUrl, afterLabel = 'After', initial = 50 }: BeforeAfterProps) {
  const [pos, setPos] = useState(initial);
  const [size, setSize] = useState<{ w: number; h: number }>();
  const box = useRef<HTMLDivElement>(null);
  const dragging = useRef(false);

  const moveTo = (clientX: number) => {
    const r = box.current?.getBoundingClientRect();
    if (r && r.width > 0) setPos(clamp(((clientX - r.left) / r.width) * 100));
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    dragging.current = true;
    e.currentTarget.setPointerCapture?.(e.pointerId);
    moveTo(e.clientX);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => dragging.current && moveTo(e.clientX);
  const stop = () => {
    dragging.current = false;
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const big = e.shiftKey ? 10 : 1;
    const next: Record<string, number> = {
      ArrowLeft: pos - big,
      ArrowDown: pos - big,
      ArrowRight: pos + big,
      ArrowUp: pos + big,
      PageDown: pos - 10,
      PageUp: pos + 10,
      Home: 0,
      End: 100,
    };
    if (!(e.key in next)) return;
    e.preventDefault();
    setPos(clamp(next[e.key]));
  };

  const shown = Math.round(pos);
  const ratio = size ? size.w / size.h : 4 / 3;
  return (
    // A size container, so the comparison box can fit itself inside whatever space the stage gives it.
    <div className="grid size-full place-items-center [container-type:size]">
      <div
        ref={box}
        className="relative cursor-ew-resize touch-none select-none overflow-hidden rounded-lg bg-white shadow-lift"
        style={{ aspectRatio: `${ratio}`, width: `min(100cqw, ${ratio} * 100cqh)`, maxWidth: size?.w }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={stop}
        onPointerCancel={stop}
      >
        <img
          src={beforeUrl}
          alt="Before"
          draggable={false}
          onLoad={(e) => setSize({ w: e.currentTarget.naturalWidth || 4, h: e.currentTarget.naturalHeight || 3 })}
          className="absolute inset-0 size-full object-contain"
        />
        <div className="bg-checker absolute inset-0" style={{ clipPath: `inset(0 0 0 ${pos}%)` }}>
          {afterUrl && <img src={afterUrl} alt={afterLabel} draggable={false} className="size-full object-contain" />}
        </div>

        <span className="pointer-events-none absolute left-3 top-3 rounded-full bg-stone-900/70 px-2 py-0.5 text-[11px] font-medium text-white backdrop-blur" style={{ opacity: pos > 12 ? 1 : 0 }}>
          Before
        </span>
        <span className="pointer-events-none absolute right-3 top-3 rounded-full bg-stone-900/70 px-2 py-0.5 text-[11px] font-medium text-white backdrop-blur" style={{ opacity: pos < 88 ? 1 : 0 }}>
          {afterLabel}
        </span>

        <div
          role="slider"
          tabIndex={0}
          aria-label="Before/after divider"
          aria-orientation="horizontal"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={shown}
          aria-valuetext={`${shown}% before, ${100 - shown}% after`}
          data-testid="before-after-divider"
          onKeyDown={onKeyDown}
          className="group absolute inset-y-0 w-8 -translate-x-1/2 cursor-ew-resize outline-none"
          style={{ left: `${pos}%` }}
        >
          <span className="absolute inset-y-0 left-1/2 w-0.5 -translate-x-1/2 bg-white shadow-[0_0_0_1px_rgb(0_0_0/0.15)]" />
          <span className="absolute left-1/2 top-1/2 grid size-9 -translate-x-1/2 -translate-y-1/2 place-items-center rounded-full bg-white text-stone-700 shadow-lift ring-1 ring-stone-900/10 group-focus-visible:ring-2 group-focus-visible:ring-accent-500">
            <svg className="size-4" viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
              <path d="M7.5 6 3.5 10l4 4M12.5 6l4 4-4 4" />
            </svg>
          </span>
        </div>
      </div>
    </div>
  );
}
