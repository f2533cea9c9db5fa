/**
 * Smart crop results: the original with the kept window drawn on it (outside dimmed, numbers shown), next to
 * the cropped result. The window is retain_location in input pixels, mapped through the object-contain
 * scaling of the displayed photo (utils/crop-overlay.ts).
 */
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useElementSize } from '../hooks/use-element-size.ts';
import { containRect, keptShare, retainToDisplay } from '../utils/crop-overlay.ts';
import type { Rect, Size } from '../utils/crop-overlay.ts';

export interface CropViewProps {
  beforeUrl: string | undefined;
  afterUrl: string | undefined;
  retain: Rect;
  /** Width and height that were asked for (the crop's own size). */
  target?: Size;
}

function Pane({ title, caption, children }: { title: string; caption: ReactNode; children: ReactNode }) {
  return (
    // Stacked on a narrow stage, each picture keeps a height of its own (the view scrolls) rather than share a sliver.
    <figure className="flex min-w-0 shrink-0 flex-col gap-2 @md:min-h-0 @md:flex-1 @md:shrink">
      <div className="relative h-[clamp(200px,42vh,420px)] @md:h-auto @md:min-h-0 @md:flex-1">{children}</div>
      <figcaption className="text-[12.5px] leading-5 text-stone-600">
        <span className="font-semibold text-stone-800">{title}</span> · {caption}
      </figcaption>
    </figure>
  );
}

export function OriginalWithWindow({ url, retain }: { url: string | undefined; retain: Rect }) {
  const [frameRef, frame] = useElementSize<HTMLDivElement>();
  const [natural, setNatural] = useState<Size>();
  const img = natural && containRect(natural, frame);
  const box = natural && retainToDisplay(retain, natural, frame);
  const outside = natural && (retain.x < 0 || retain.y < 0 || retain.x + retain.width > natural.width + 1 || retain.y + retain.height > natural.height + 1);
  const labelAbove = box && box.y >= 26;

  return (
    <div ref={frameRef} className="absolute inset-0" data-testid="crop-original">
      {url && (
        <img
          src={url}
          alt="Original with the kept window"
          draggable={false}
          onLoad={(e) => setNatural({ width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight })}
          className="absolute inset-0 size-full object-contain"
        />
      )}
      {img && box && img.width > 0 && (
        <svg className="pointer-events-none absolute inset-0" width={frame.width} height={frame.height} aria-hidden="true" data-testid="retain-overlay">
          {/* The photo minus the window, dimmed; the letterbox bands stay as they are. */}
          <path
            fillRule="evenodd"
            fill="#0c0a09"
            fillOpacity={0.65}
            d={`M${img.x} ${img.y}h${img.width}v${img.height}h${-img.width}Z M${box.x} ${box.y}v${box.height}h${box.width}v${-box.height}Z`}
          />
          <rect x={box.x} y={box.y} width={box.width} height={box.height} fill="none" stroke="#000" strokeOpacity={0.35} strokeWidth={4} />
          <rect
            data-testid="retain-rect"
            x={box.x}
            y={box.y}
            width={box.width}
            height={box.height}
            fill="none"
            stroke="#fff"
            strokeWidth={2}
            data-x={box.x.toFixed(1)}
            data-y={box.y.toFixed(1)}
            data-width={box.width.toFixed(1)}
            data-height={box.height.toFixed(1)}
          />
          {/* Thirds, faintly, as a framing aid inside the window. */}
          {[1, 2].map((k) => (
            <g key={k} stroke="#fff" strokeOpacity={0.35} strokeWidth={1}>
              <line x1={box.x + (box.width * k) / 3} y1={box.y} x2={box.x + (box.width * k) / 3} y2={box.y + box.height} />
              <line x1={box.x} y1={box.y + (box.height * k) / 3} x2={box.x + box.width} y2={box.y + (box.height * k) / 3} />
            </g>
          ))}
        </svg>
      )}
      {box && img && img.width > 0 && (
        <span
          className="pointer-events-none absolute whitespace-nowrap rounded-md bg-white px-1.5 py-0.5 font-mono text-[11px] font-medium text-stone-800 shadow-lift"
          style={{ left: Math.max(4, Math.min(box.x, frame.width - 230)), top: labelAbove ? box.y - 24 : box.y + 6 }}
          data-testid="retain-label"
        >
          x {retain.x} · y {retain.y} · {retain.width}×{retain.height}
        </span>
      )}
      {outside && (
        <span className="absolute bottom-2 left-2 rounded-md bg-amber-50 px-2 py-1 text-[11px] text-amber-800 ring-1 ring-amber-200">
          retain_location reaches outside the {natural.width}×{natural.height} photo; drawn clipped.
        </span>
      )}
    </div>
  );
}

export function CropView({ beforeUrl, afterUrl, retain, target }: CropViewProps) {
  const [natural, setNatural] = useState<Size>();
  const share = natural ? keptShare(retain, natural) : undefined;
  return (
    <div className="flex size-full min-h-0 flex-col gap-4 overflow-y-auto @md:flex-row @md:gap-5 @md:overflow-visible" data-testid="crop-view">
      <Pane
        title="Original"
        caption={
          <>
            kept <span className="font-mono tabular-nums">{retain.width}×{retain.height}</span> px at{' '}
            <span className="font-mono tabular-nums">({retain.x}, {retain.y})</span>
            {natural && (
              <>
                {' '}of <span className="font-mono tabular-nums">{natural.width}×{natural.height}</span>
                {share !== undefined && <> ({Math.round(share * 100)}% of the photo)</>}
              </>
            )}
          </>
        }
      >
        <div className="absolute inset-0 overflow-hidden rounded-lg bg-stone-100 ring-1 ring-stone-200">
          <OriginalWithWindow url={beforeUrl} retain={retain} />
        </div>
        {/* Reads the photo's size for the caption; the drawn one reads its own. */}
        {beforeUrl && <img src={beforeUrl} alt="" hidden onLoad={(e) => setNatural({ width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight })} />}
      </Pane>
      <Pane
        title="Crop"
        caption={
          target ? (
            <>
              <span className="font-mono tabular-nums">{target.width}×{target.height}</span> px
              {(target.width !== retain.width || target.height !== retain.height) && <>, the window scaled {target.width > retain.width ? 'up' : 'down'}</>}
            </>
          ) : (
            'the result'
          )
        }
      >
        <div className="absolute inset-0 overflow-hidden rounded-lg bg-stone-100 ring-1 ring-stone-200">
          {afterUrl && <img src={afterUrl} alt="Crop" draggable={false} className="absolute inset-0 size-full object-contain" />}
        </div>
      </Pane>
    </div>
  );
}
