/**
 * Correcting a cutout in the browser: erase and restore brushes (with a smart mode that keeps to the colour
 * under the brush, so it stops at edges), click to remove a piece or keep only one, a new background (colour,
 * image, the photo blurred) with an optional soft shadow, undo and redo. The edits are made on the mask at
 * the size the engine worked at; the download is composed at the original photo's size.
 * Loaded on demand (React.lazy) so the studio's first load does not carry it.
 */
import { useEffect, useRef, useState } from 'react';
import type { PointerEvent as ReactPointerEvent } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { SegmentedControl } from '../../../components/ui/segmented-control.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Switch } from '../../../components/ui/switch.tsx';
import { cn } from '../../../lib/cn.ts';
import { composeFullSize, composeOnto, context, makeCanvas, pixelsOf, type AnyCanvas, type Backdrop } from '../utils/compose.ts';
import { loadCutout, type CutoutSources, type LoadedCutout } from '../utils/load-cutout.ts';
import { History, keepRegion, paintDab, paintLine, removeRegion, type Dirty, type Pixels } from '../utils/mask-ops.ts';

type Tool = 'erase' | 'restore' | 'remove' | 'keep';
type BackdropKind = Backdrop['kind'];

/** Colour distance (RGB) within which the smart brush and "similar colour" count a pixel as alike. */
const TOLERANCE = 48;

export interface CutoutEditorProps {
  sources: CutoutSources;
  /** The download's file name. */
  fileName: string;
  onClose: () => void;
}

interface Session extends LoadedCutout {
  edgePixels?: Pixels;
  subject: ImageData;
  subjectCanvas: AnyCanvas;
  history: History;
}

/** Writes the subject's pixels (photo colour, edited alpha) back inside a box after an edit. */
function refreshSubject(s: Session, box: Dirty) {
  const { width } = s.mask;
  const d = s.subject.data, p = s.photo.data, e = s.edgePixels?.data, a = s.mask.alpha;
  for (let y = box.y0; y < box.y1; y++) {
    for (let x = box.x0; x < box.x1; x++) {
      const i = y * width + x, j = i * 4;
      const al = a[i];
      const src = e !== undefined && al > 0 && al < 255 && e[j + 3] > 0 ? e : p;
      d[j] = src[j];
      d[j + 1] = src[j + 1];
      d[j + 2] = src[j + 2];
      d[j + 3] = al;
    }
  }
  context(s.subjectCanvas).putImageData(s.subject, 0, 0, box.x0, box.y0, box.x1 - box.x0, box.y1 - box.y0);
}

const whole = (s: Session): Dirty => ({ x0: 0, y0: 0, x1: s.mask.width, y1: s.mask.height });

export default function CutoutEditor({ sources, fileName, onClose }: CutoutEditorProps) {
  const [session, setSession] = useState<Session>();
  const [error, setError] = useState<string>();
  const [tool, setTool] = useState<Tool>('erase');
  const [size, setSize] = useState(24);
  const [smart, setSmart] = useState(false);
  const [similar, setSimilar] = useState(false);
  const [backdropKind, setBackdropKind] = useState<BackdropKind>('transparent');
  const [colour, setColour] = useState('#ffffff');
  const [image, setImage] = useState<ImageBitmap>();
  const [shadow, setShadow] = useState(false);
  const [, setEdits] = useState(0);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<string>();
  const view = useRef<HTMLCanvasElement>(null);
  const stroke = useRef<{ last: { x: number; y: number }; before: Uint8Array } | null>(null);
  const [cursor, setCursor] = useState<{ x: number; y: number; r: number } | null>(null);

  useEffect(() => {
    let live = true;
    loadCutout(sources)
      .then((loaded) => {
        if (!live) return;
        const { width, height } = loaded.mask;
        const subjectCanvas = makeCanvas(width, height);
        const s: Session = {
          ...loaded,
          edgePixels: loaded.edge ? pixelsOf(loaded.edge, width, height) : undefined,
          subject: new ImageData(width, height),
          subjectCanvas,
          history: new History(),
        };
        refreshSubject(s, whole(s));
        setSession(s);
      })
      .catch((e: unknown) => live && setError(e instanceof Error ? e.message : String(e)));
    return () => {
      live = false;
    };
  }, [sources]);

  const backdrop: Backdrop =
    backdropKind === 'colour' ? { kind: 'colour', colour } : backdropKind === 'image' && image ? { kind: 'image', image } : backdropKind === 'blur' ? { kind: 'blur' } : { kind: 'transparent' };

  // One redraw a frame however many pointer events arrive; it draws with the options of the latest render.
  const frame = useRef(0);
  const latest = useRef({ session, backdrop, shadow });
  latest.current = { session, backdrop, shadow };
  const redraw = () => {
    cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(() => {
      const { session: s, backdrop: b, shadow: sh } = latest.current;
      if (s && view.current) composeOnto(view.current, s.subjectCanvas, s.photoCanvas, { backdrop: b, shadow: sh });
    });
  };
  useEffect(redraw, [session, backdropKind, colour, image, shadow]);
  // "Saved …" spoke of the picture as it was downloaded.
  useEffect(() => setSaved(undefined), [backdropKind, colour, image, shadow]);

  /** A point of the page in mask pixels, and how many mask pixels a screen pixel is. */
  const toMask = (e: { clientX: number; clientY: number }) => {
    const r = view.current!.getBoundingClientRect();
    const k = session!.mask.width / Math.max(1, r.width);
    return { x: (e.clientX - r.left) * k, y: (e.clientY - r.top) * k, k };
  };

  const changed = (box: Dirty | null) => {
    if (!session || !box) return;
    refreshSubject(session, box);
    redraw();
  };

  const commit = (before: Uint8Array) => {
    session!.history.push(before);
    setEdits((n) => n + 1);
    setSaved(undefined);
  };

  const brush = tool === 'erase' || tool === 'restore';
  const onPointerDown = (e: ReactPointerEvent<HTMLCanvasElement>) => {
    if (!session || (e.pointerType === 'mouse' && e.button !== 0)) return;
    e.preventDefault();
    const p = toMask(e);
    const before = session.mask.alpha.slice();
    if (brush) {
      e.currentTarget.setPointerCapture?.(e.pointerId);
      stroke.current = { last: p, before };
      changed(paintDab(session.mask, { x: p.x, y: p.y, radius: size * p.k, mode: tool, smart: smart ? { photo: session.photo, tolerance: TOLERANCE } : undefined }));
      return;
    }
    const near = similar ? { tolerance: TOLERANCE } : undefined;
    const box = tool === 'remove' ? removeRegion(session.mask, session.photo, p.x, p.y, near) : keepRegion(session.mask, session.photo, p.x, p.y, near);
    if (box) {
      changed(box);
      commit(before);
    }
  };
  const onPointerMove = (e: ReactPointerEvent<HTMLCanvasElement>) => {
    if (!session) return;
    const p = toMask(e);
    if (brush) {
      const r = view.current!.parentElement!.getBoundingClientRect();
      setCursor({ x: e.clientX - r.left, y: e.clientY - r.top, r: size });
    }
    const s = stroke.current;
    if (!s || !brush) return;
    changed(paintLine(session.mask, s.last, { x: p.x, y: p.y, radius: size * p.k, mode: tool, smart: smart ? { photo: session.photo, tolerance: TOLERANCE } : undefined }));
    s.last = p;
  };
  const endStroke = () => {
    const s = stroke.current;
    stroke.current = null;
    if (s && session) commit(s.before);
  };

  const undo = () => {
    if (session?.history.undo(session.mask.alpha)) {
      changed(whole(session));
      setEdits((n) => n + 1);
    }
  };
  const redo = () => {
    if (session?.history.redo(session.mask.alpha)) {
      changed(whole(session));
      setEdits((n) => n + 1);
    }
  };
  const reset = () => {
    if (!session) return;
    const before = session.mask.alpha.slice();
    session.mask.alpha.set(session.engineAlpha);
    changed(whole(session));
    commit(before);
  };

  // Ctrl/Cmd+Z undoes, with Shift (or Ctrl+Y) redoes.
  const keys = useRef({ undo, redo });
  keys.current = { undo, redo };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || (e.target as HTMLElement | null)?.closest?.('input, textarea')) return;
      const k = e.key.toLowerCase();
      if (k === 'z' && !e.shiftKey) keys.current.undo();
      else if ((k === 'z' && e.shiftKey) || k === 'y') keys.current.redo();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const download = async () => {
    if (!session) return;
    setBusy(true);
    try {
      const blob = await composeFullSize({ photo: session.original, mask: session.mask, edge: session.edge, backdrop, shadow });
      const href = URL.createObjectURL(blob);
      Object.assign(document.createElement('a'), { href, download: fileName }).click();
      setTimeout(() => URL.revokeObjectURL(href), 10_000);
      setSaved(`Saved ${fileName} at ${session.original.width} × ${session.original.height}.`);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  const pickImage = async (file: File | undefined) => {
    if (!file) return;
    try {
      setImage(await createImageBitmap(file));
      setBackdropKind('image');
    } catch {
      setError(`${file.name} could not be read as an image.`);
    }
  };

  const history = session?.history;
  return (
    <section aria-label="Cutout editor" className="flex h-full min-h-0 flex-col gap-3">
      <div className="flex flex-wrap items-end gap-x-4 gap-y-2">
        <div className="w-full sm:w-auto">
          <SegmentedControl
            label="Tool"
            options={[
              { value: 'erase' as Tool, label: 'Erase' },
              { value: 'restore' as Tool, label: 'Restore' },
              { value: 'remove' as Tool, label: 'Remove a piece' },
              { value: 'keep' as Tool, label: 'Keep a piece' },
            ]}
            value={tool}
            onChange={setTool}
          />
        </div>
        {brush ? (
          <>
            <label className="flex items-center gap-2 text-[13px] text-stone-700">
              Brush size
              <input type="range" aria-label="Brush size" min={4} max={120} step={1} value={size} onChange={(e) => setSize(Number(e.target.value))} className="atelier-range w-28" style={{ ['--fill' as string]: `${((size - 4) / 116) * 100}%` }} />
              <span className="w-8 tabular-nums text-stone-600">{size}</span>
            </label>
            <span className="flex items-center gap-2 text-[13px] text-stone-700" title="The brush changes only pixels of a colour close to the one under its centre, so it stops at edges.">
              <Switch checked={smart} onChange={setSmart} label="Smart edges" />
              Smart edges
            </span>
          </>
        ) : (
          <span className="flex items-center gap-2 text-[13px] text-stone-700" title="Only the connected pixels of a colour close to the clicked one, instead of the whole piece.">
            <Switch checked={similar} onChange={setSimilar} label="Similar colour only" />
            Similar colour only
          </span>
        )}
        <div className="flex items-center gap-1.5">
          <Button size="sm" onClick={undo} disabled={!history?.canUndo} title="Undo (Ctrl+Z)">
            Undo
          </Button>
          <Button size="sm" onClick={redo} disabled={!history?.canRedo} title="Redo (Ctrl+Shift+Z)">
            Redo
          </Button>
          <Button size="sm" variant="ghost" onClick={reset} disabled={!session}>
            Reset
          </Button>
        </div>
      </div>

      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <div className="w-full sm:w-auto">
          <SegmentedControl
            label="New background"
            options={[
              { value: 'transparent' as BackdropKind, label: 'Transparent' },
              { value: 'colour' as BackdropKind, label: 'Colour' },
              { value: 'image' as BackdropKind, label: 'Image' },
              { value: 'blur' as BackdropKind, label: 'Blurred photo' },
            ]}
            value={backdropKind}
            onChange={setBackdropKind}
          />
        </div>
        {backdropKind === 'colour' && (
          <label className="flex items-center gap-2 text-[13px] text-stone-700">
            Colour
            <input type="color" aria-label="Background colour" value={colour} onChange={(e) => setColour(e.target.value)} className="h-8 w-10 cursor-pointer rounded" />
          </label>
        )}
        {backdropKind === 'image' && (
          <label className="inline-flex h-8 cursor-pointer items-center rounded-lg bg-white px-2.5 text-[13px] font-medium text-stone-800 ring-1 ring-inset ring-stone-300 hover:bg-stone-50">
            {image ? 'Another image…' : 'Choose an image…'}
            <input type="file" accept="image/*" aria-label="Background image" className="sr-only" onChange={(e) => void pickImage(e.target.files?.[0])} />
          </label>
        )}
        <span className="flex items-center gap-2 text-[13px] text-stone-700">
          <Switch checked={shadow} onChange={setShadow} label="Soft shadow" />
          Soft shadow
        </span>
      </div>

      <div
        className={cn('relative grid min-h-[300px] flex-1 place-items-center overflow-hidden rounded-lg', backdropKind === 'transparent' || (backdropKind === 'image' && !image) ? 'bg-checker' : 'bg-stone-100')}
      >
        {!session && !error && (
          <p role="status" className="flex items-center gap-2 text-[13px] text-stone-700">
            <Spinner /> Opening the editor…
          </p>
        )}
        {session && (
          <>
            {/* Absolutely placed with auto margins: the canvas fits the box whatever its height, keeping its ratio. */}
            <canvas
              ref={view}
              role="img"
              aria-label="Cutout being edited"
              data-testid="cutout-canvas"
              width={session.mask.width}
              height={session.mask.height}
              onPointerDown={onPointerDown}
              onPointerMove={onPointerMove}
              onPointerUp={endStroke}
              onPointerCancel={endStroke}
              onPointerLeave={() => setCursor(null)}
              className={cn('absolute inset-0 m-auto block max-h-full max-w-full touch-none select-none', brush ? 'cursor-none' : 'cursor-pointer')}
            />
            {cursor && brush && (
              <span
                aria-hidden="true"
                className="pointer-events-none absolute rounded-full border border-white shadow-[0_0_0_1px_rgba(0,0,0,0.6)]"
                style={{ left: cursor.x - cursor.r, top: cursor.y - cursor.r, width: cursor.r * 2, height: cursor.r * 2 }}
              />
            )}
          </>
        )}
      </div>

      {error && (
        <p role="alert" className="text-[13px] text-red-700">
          {error}
        </p>
      )}
      <div className="sticky bottom-0 flex flex-wrap items-center justify-between gap-2 bg-stone-50/95 py-2">
        <p className="text-[12px] text-stone-600" data-testid="editor-size">
          {saved ??
            (session
              ? `Downloads at ${session.original.width} × ${session.original.height}, the photo's own size${session.original.width !== session.mask.width ? ` (edited at ${session.mask.width} × ${session.mask.height})` : ''}.`
              : '')}
        </p>
        <div className="flex items-center gap-1.5">
          <Button size="sm" variant="ghost" onClick={onClose}>
            Close editor
          </Button>
          <Button size="sm" variant="primary" onClick={() => void download()} disabled={!session || busy}>
            {busy ? <Spinner /> : null}
            Download full size
          </Button>
        </div>
      </div>
    </section>
  );
}
