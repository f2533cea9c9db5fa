/**
 * Before/after comparison: the result is laid over the photo and revealed right of a divider that follows the
 * pointer and the keyboard (role="slider"). Zoom and pan apply to both halves together: the wheel or a pinch
 * zooms around the pointer, a drag pans once zoomed in, a double-click toggles fit and 100 %. Transparent
 * results sit on the chosen background; a trimmed result is placed where it was in the photo.
 */
import { useEffect, useRef, useState } from 'react';
import type { KeyboardEvent, PointerEvent } from 'react';
import type { Placement } from '../utils/locate-crop.ts';
import { backgroundStyle } from './background-picker.tsx';
import type { ViewerBackground } from './background-picker.tsx';

export interface BeforeAfterProps {
  beforeUrl: string | undefined;
  afterUrl: string | undefined;
  afterLabel?: string;
  /** 0..100, the share of the width that shows the photo. */
  initial?: number;
  /** Where the result lies in the photo, in the photo's pixels (a trimmed cutout); absent: the whole frame. */
  placement?: Placement;
  background?: ViewerBackground;
  /** Zoom and pan held outside (two viewers kept aligned, as the gallery's comparison does); else its own. */
  view?: View;
  onViewChange?: (view: View) => void;
  /** The divider held outside, likewise. */
  position?: number;
  onPositionChange?: (position: number) => void;
  /**
   * A part of the photo (its pixels) to open on where the whole photo would show at less than half its size
   * (a face effect on a phone): zoomed to fill the box with it, at most to 100 %. Not with a view held outside.
   */
  focus?: { x: number; y: number; width: number; height: number };
}

/** Below this share of its pixels, a photo opens on its focus. */
const FOCUS_BELOW = 0.5;

/** Zoom and pan. Offsets are shares of the box, so two boxes of different sizes show the same part. */
export interface View {
  /** 1 = the photo fits the box. */
  zoom: number;
  /** Offset of the zoomed picture's top-left corner, as a share of the box's width (≤ 0). */
  x: number;
  /** Likewise, as a share of the box's height. */
  y: number;
}

export const FIT: View = { zoom: 1, x: 0, y: 0 };

const clamp = (n: number, lo = 0, hi = 100) => Math.min(hi, Math.max(lo, n));
const MAX_ZOOM = 32;

export function BeforeAfter({ beforeUrl, afterUrl, afterLabel = 'After', initial = 50, placement, background = 'checker', focus, ...held }: BeforeAfterProps) {
  const [ownPos, setOwnPos] = useState(initial);
  const [size, setSize] = useState<{ w: number; h: number }>();
  const [ownView, setOwnView] = useState<View>(FIT);
  const view = held.view ?? ownView;
  const pos = held.position ?? ownPos;
  // The latest view, so that several pointer events between two renders build on each other.
  const current = useRef(view);
  current.current = view;
  const setView = (next: View | ((v: View) => View)) => {
    const v = typeof next === 'function' ? next(current.current) : next;
    current.current = v;
    (held.onViewChange ?? setOwnView)(v);
  };
  const setPos = (p: number) => (held.onPositionChange ?? setOwnPos)(p);
  const box = useRef<HTMLDivElement>(null);
  const mode = useRef<'divider' | 'pan' | null>(null);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const last = useRef<{ x: number; y: number; dist?: number }>(undefined);

  /** Zoom to `zoom` keeping the point (cx, cy) of the box (shares of its size) still; pan kept inside the picture. */
  const zoomAt = (v: View, zoom: number, cx: number, cy: number): View => {
    const z = clamp(zoom, 1, MAX_ZOOM);
    const k = z / v.zoom;
    return bound({ zoom: z, x: cx - (cx - v.x) * k, y: cy - (cy - v.y) * k });
  };
  const bound = (v: View): View => (v.zoom <= 1 ? FIT : { zoom: v.zoom, x: clamp(v.x, 1 - v.zoom, 0), y: clamp(v.y, 1 - v.zoom, 0) });
  /** A point of the page as shares of the box. */
  const local = (clientX: number, clientY: number) => {
    const r = box.current!.getBoundingClientRect();
    return { x: r.width > 0 ? (clientX - r.left) / r.width : 0.5, y: r.height > 0 ? (clientY - r.top) / r.height : 0.5, w: r.width, h: r.height };
  };

  // Opens once on the focus, when the photo and the box are measured and the whole photo would show small.
  const focused = useRef(false);
  useEffect(() => {
    const boxWidth = box.current?.getBoundingClientRect().width ?? 0;
    if (focused.current || !focus || !size || held.view || boxWidth <= 0 || current.current.zoom !== 1) return;
    focused.current = true;
    const fit = boxWidth / size.w;
    if (fit >= FOCUS_BELOW) return;
    const zoom = Math.min(1 / fit, size.w / Math.max(1, focus.width), size.h / Math.max(1, focus.height));
    if (zoom <= 1.05) return;
    const cx = (focus.x + focus.width / 2) / size.w, cy = (focus.y + focus.height / 2) / size.h;
    setView(bound({ zoom, x: 0.5 - cx * zoom, y: 0.5 - cy * zoom }));
  });

  // The wheel zooms here instead of scrolling the page: a non-passive listener, so it can be prevented.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const p = local(e.clientX, e.clientY);
      setView((v) => zoomAt(v, v.zoom * Math.exp(-e.deltaY * 0.0015), p.x, p.y));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  });

  const moveDivider = (clientX: number) => {
    const r = box.current?.getBoundingClientRect();
    if (r && r.width > 0) setPos(clamp(((clientX - r.left) / r.width) * 100));
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.currentTarget.setPointerCapture?.(e.pointerId);
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    const onHandle = (e.target as HTMLElement).closest('[data-divider]') !== null;
    mode.current = onHandle || view.zoom <= 1 ? 'divider' : 'pan';
    last.current = { x: e.clientX, y: e.clientY };
    if (pointers.current.size === 2) {
      const [a, b] = [...pointers.current.values()];
      mode.current = 'pan';
      last.current = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, dist: Math.hypot(a.x - b.x, a.y - b.y) };
    } else if (mode.current === 'divider') moveDivider(e.clientX);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!pointers.current.has(e.pointerId) || !mode.current) return;
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.current.size === 2 && last.current?.dist) {
      // Pinch: zoom by the change of distance around the fingers' midpoint, and follow the midpoint.
      const [a, b] = [...pointers.current.values()];
      const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
      const dist = Math.hypot(a.x - b.x, a.y - b.y);
      const prev = last.current;
      // The picture point that was under the old midpoint ends under the new one.
      const p = local(prev.x, prev.y);
      setView((v) => {
        const z = zoomAt(v, v.zoom * (dist / prev.dist!), p.x, p.y);
        return p.w > 0 && p.h > 0 ? bound({ ...z, x: z.x + (mid.x - prev.x) / p.w, y: z.y + (mid.y - prev.y) / p.h }) : z;
      });
      last.current = { ...mid, dist };
      return;
    }
    if (mode.current === 'divider') return moveDivider(e.clientX);
    const prev = last.current!;
    const r = box.current!.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) setView((v) => bound({ ...v, x: v.x + (e.clientX - prev.x) / r.width, y: v.y + (e.clientY - prev.y) / r.height }));
    last.current = { x: e.clientX, y: e.clientY };
  };
  const stop = (e: PointerEvent<HTMLDivElement>) => {
    pointers.current.delete(e.pointerId);
    if (pointers.current.size === 0) mode.current = null;
    // One finger lifted from a pinch: the other pans on from where it is, without a jump.
    const [rest] = [...pointers.current.values()];
    if (rest) last.current = { x: rest.x, y: rest.y };
  };
  /** Double-click: 100 % (one photo pixel per screen pixel) around the point, or back to fit. */
  const onDoubleClick = (e: React.MouseEvent<HTMLDivElement>) => {
    const p = local(e.clientX, e.clientY);
    const actual = size && p.w > 0 ? size.w / p.w : 2;
    // A photo shown at its own size already goes to 200 % instead.
    setView((v) => (v.zoom > 1.01 ? FIT : zoomAt(v, actual > 1.01 ? actual : 2, p.x, p.y)));
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
  const fitScale = size && box.current ? box.current.getBoundingClientRect().width / size.w : undefined;
  const percent = fitScale ? Math.round(view.zoom * fitScale * 100) : undefined;
  // Percentages of translate() are of the layer's own size, which is the box's.
  const transform = { transform: `translate(${view.x * 100}%, ${view.y * 100}%) scale(${view.zoom})`, transformOrigin: '0 0' };
  const bg = backgroundStyle(background);
  const afterBox = placement && size
    ? { left: `${(placement.x / size.w) * 100}%`, top: `${(placement.y / size.h) * 100}%`, width: `${(placement.width / size.w) * 100}%`, height: `${(placement.height / size.h) * 100}%` }
    : { inset: 0 };
  return (
    // A size container, so the comparison box can fit itself inside whatever space the stage gives it.
    <div className="relative grid size-full place-items-center [container-type:size]">
      <div
        ref={box}
        className="relative cursor-ew-resize touch-none select-none overflow-hidden rounded-lg bg-white shadow-lift"
        style={{ aspectRatio: `${ratio}`, width: `min(100cqw, ${ratio} * 100cqh)`, maxWidth: size?.w, cursor: view.zoom > 1 ? 'grab' : undefined }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={stop}
        onPointerCancel={stop}
        onDoubleClick={onDoubleClick}
        data-testid="before-after"
        data-zoom={view.zoom.toFixed(3)}
        data-pan={`${view.x.toFixed(3)},${view.y.toFixed(3)}`}
      >
        <div className="absolute inset-0" style={transform}>
          <img
            src={beforeUrl}
            alt="Before"
            draggable={false}
            onLoad={(e) => setSize({ w: e.currentTarget.naturalWidth || 4, h: e.currentTarget.naturalHeight || 3 })}
            className="absolute inset-0 size-full object-contain"
            style={{ imageRendering: percent && percent > 200 ? 'pixelated' : undefined }}
          />
        </div>
        <div className={`absolute inset-0 ${bg.className}`} style={{ ...bg.style, clipPath: `inset(0 0 0 ${pos}%)` }} data-testid="after-layer">
          <div className="absolute inset-0" style={transform}>
            {afterUrl && (
              <img
                src={afterUrl}
                alt={afterLabel}
                draggable={false}
                className="absolute object-contain"
                style={{ ...afterBox, ...(placement ? {} : { width: '100%', height: '100%' }), imageRendering: percent && percent > 200 ? 'pixelated' : undefined }}
              />
            )}
          </div>
        </div>

        <span className="pointer-events-none absolute left-3 top-3 rounded-full bg-stone-900/75 px-2 py-0.5 text-[11px] font-medium text-white backdrop-blur" style={{ opacity: pos > 12 ? 1 : 0 }}>
          Before
        </span>
        <span className="pointer-events-none absolute right-3 top-3 rounded-full bg-stone-900/75 px-2 py-0.5 text-[11px] font-medium text-white backdrop-blur" style={{ opacity: pos < 88 ? 1 : 0 }}>
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
          data-divider
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
        <div className="absolute bottom-2 right-2 flex items-center gap-1 rounded-full bg-stone-900/75 px-1 py-0.5 text-[11px] font-medium text-white">
          <span className="px-1.5 tabular-nums" aria-live="polite" data-testid="zoom-level">
            {view.zoom <= 1.001 ? `Fit (${percent ?? 100} %)` : `${percent ?? Math.round(view.zoom * 100)} %`}
          </span>
          {view.zoom > 1.001 && (
            <button type="button" className="rounded-full px-1.5 hover:bg-white/20" onPointerDown={(e) => e.stopPropagation()} onClick={() => setView(FIT)}>
              Fit
            </button>
          )}
        </div>
      </div>
    </div>
  );
}
