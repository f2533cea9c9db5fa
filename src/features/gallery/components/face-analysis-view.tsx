/**
 * Face analyzer results: the photo with every face's box and number (1 = largest), a scrolling list of the
 * faces, and the attributes of the face pointed at or chosen, in words (utils/face-analysis.ts). Boxes are in
 * the answer's pixels, mapped through the object-contain scaling of the displayed photo and clipped to it.
 * The raw answer is a tab away.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { cn } from '../../../lib/cn.ts';
import { useElementSize } from '../hooks/use-element-size.ts';
import { containRect } from '../utils/crop-overlay.ts';
import type { Size } from '../utils/crop-overlay.ts';
import { boxToDisplay, faceSummary, outsideImage, readFace, readFaceAnswer, requestedFamilies } from '../utils/face-analysis.ts';
import type { Face, FaceAnswer, FaceReading, FamilyReading } from '../utils/face-analysis.ts';
import { ViewTabs } from './view-tabs.tsx';
import { ResponseView } from './response-view.tsx';

export interface FaceAnalysisViewProps {
  /** The analysed photo. */
  photoUrl: string | undefined;
  /** The answer as stored (envelope included). */
  body: unknown;
  /** The answer is still being read from storage. */
  loading?: boolean;
  /** face_attributes_type as sent; without it, unrequested families are told by their zeros. */
  requested?: string;
  /** Where the raw answer is stored, for the Raw JSON tab. */
  responseKey: string;
}

/** Which face the details show: the one pointed at (hover or focus) wins over the chosen one. */
interface Pointing {
  shown: number | undefined;
  chosen: number;
  preview: (i: number | undefined) => void;
  choose: (i: number) => void;
}

/** A face's box and its list row are the same control: pointing previews the face, a click chooses it. */
const faceButton = (pointing: Pointing, i: number, number: number) => ({
  'aria-label': `Face ${number}`,
  'aria-pressed': pointing.chosen === i,
  onClick: () => pointing.choose(i),
  onMouseEnter: () => pointing.preview(i),
  onMouseLeave: () => pointing.preview(undefined),
  onFocus: () => pointing.preview(i),
  onBlur: () => pointing.preview(undefined),
});

const sizeText = (r: { width: number; height: number }) => `${Math.round(r.width)}×${Math.round(r.height)}`;
const coord = (v: number) => (v < 0 ? `−${Math.abs(Math.round(v))}` : String(Math.round(v)));

function FacePhoto({ url, answer, pointing }: { url: string | undefined; answer: FaceAnswer; pointing: Pointing }) {
  const [frameRef, frame] = useElementSize<HTMLDivElement>();
  const [natural, setNatural] = useState<Size>();
  // The boxes are in the answer's pixels; what is displayed is the decoded photo (the answer's size until it loads).
  const displayed = natural ?? answer.image;
  const space = answer.image ?? natural;
  const img = displayed && containRect(displayed, frame);

  return (
    <div className="absolute inset-0 overflow-hidden rounded-lg bg-stone-100 ring-1 ring-stone-200">
      <div ref={frameRef} className="absolute inset-0" data-testid="face-photo">
        {url && (
          <img
            src={url}
            alt="Analysed photo"
            draggable={false}
            onLoad={(e) => setNatural({ width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight })}
            className="absolute inset-0 size-full object-contain"
          />
        )}
        {img && displayed && space && img.width > 0 && (
          // Clipped to the photo: boxes of faces cut by the edge reach past it. Largest first, so a small face
          // inside a large box is drawn above it and stays reachable; the shown box is not raised for that reason.
          <div className="absolute overflow-hidden" style={{ left: img.x, top: img.y, width: img.width, height: img.height }} data-testid="face-boxes">
            {answer.faces.map((face, i) => {
              const b = boxToDisplay(face.rect, space, displayed, frame);
              const shown = pointing.shown === i;
              // A number wider than its box would cover its neighbours (crowds of small faces): such boxes show
              // theirs only while pointed at or chosen; the list names them all.
              const labelled = shown || pointing.chosen === i || (b.width >= 14 + 7 * String(face.number).length && b.height >= 22);
              return (
                <button
                  key={face.number}
                  type="button"
                  {...faceButton(pointing, i, face.number)}
                  className={cn(
                    'absolute cursor-pointer rounded-[3px] shadow-[0_0_0_1px_rgb(0_0_0/0.35)] outline-none transition-colors',
                    'focus-visible:ring-2 focus-visible:ring-accent-300',
                    shown
                      ? 'border-2 border-accent-400 bg-accent-500/15'
                      : pointing.chosen === i
                        ? 'border-2 border-accent-200 hover:bg-white/10'
                        : 'border-[1.5px] border-white/90 hover:border-white hover:bg-white/10',
                  )}
                  style={{ left: b.x, top: b.y, width: b.width, height: b.height }}
                >
                  {/* The number sits in the visible corner even when the box starts past the edge. */}
                  {labelled && (
                    <span
                      aria-hidden="true"
                      className={cn(
                        'pointer-events-none absolute rounded-md px-1 font-mono text-[11px] font-medium leading-4 shadow-lift',
                        shown ? 'bg-accent-600 text-white' : 'bg-white text-stone-800',
                      )}
                      style={{ left: Math.max(0, -b.x) + 2, top: Math.max(0, -b.y) + 2 }}
                    >
                      {face.number}
                    </span>
                  )}
                </button>
              );
            })}
          </div>
        )}
      </div>
    </div>
  );
}

function FaceList({ faces, readings, pointing }: { faces: Face[]; readings: FaceReading[]; pointing: Pointing }) {
  const listRef = useRef<HTMLUListElement>(null);
  // A face chosen on the photo is brought into view in a long list.
  useEffect(() => {
    listRef.current?.querySelector(`[data-face="${pointing.chosen}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }, [pointing.chosen]);
  return (
    <ul ref={listRef} aria-label="Faces" className="max-h-[min(13rem,45%)] shrink-0 divide-y divide-stone-100 overflow-y-auto rounded-xl bg-white ring-1 ring-stone-200">
      {faces.map((face, i) => {
        const shown = pointing.shown === i;
        const summary = faceSummary(readings[i]);
        return (
          <li key={face.number}>
            <button
              type="button"
              data-face={i}
              {...faceButton(pointing, i, face.number)}
              className={cn(
                'flex w-full items-center gap-2 px-3.5 py-1.5 text-left text-[12.5px] outline-none',
                'focus-visible:bg-accent-50 focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-accent-300',
                shown ? 'bg-accent-50' : pointing.chosen === i ? 'bg-stone-50' : 'hover:bg-stone-50',
              )}
            >
              <span className={cn('shrink-0 font-medium', shown ? 'text-accent-700' : 'text-stone-800')}>Face {face.number}</span>
              <span className="min-w-0 flex-1 truncate text-stone-500">{readings[i].attributes ? summary : 'no attributes'}</span>
              <span className="shrink-0 font-mono text-[11px] tabular-nums text-stone-600">{sizeText(face.rect)}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

function FaceDetails({ face, reading, image }: { face: Face; reading: FaceReading; image: Size | undefined }) {
  const families = reading.attributes ? reading.families : [];
  const asked = families.filter((f): f is Extract<FamilyReading, { requested: true }> => f.requested);
  const notAsked = families.filter((f) => !f.requested);
  return (
    <section aria-label={`Face ${face.number} attributes`} className="overflow-hidden rounded-xl bg-white ring-1 ring-stone-200">
      <h3 className="flex items-baseline justify-between gap-2 border-b border-stone-100 bg-stone-50 px-3.5 py-2 text-[12.5px] font-semibold text-stone-800">
        Face {face.number}
        <span className="font-mono text-[11px] font-normal tabular-nums text-stone-500">
          x {coord(face.rect.x)} · y {coord(face.rect.y)} · {sizeText(face.rect)} px
        </span>
      </h3>
      {image && outsideImage(face.rect, image) && (
        <p className="border-b border-stone-100 bg-amber-50 px-3.5 py-1.5 text-[11.5px] text-amber-800">The box reaches past the photo's edge; it is drawn clipped.</p>
      )}
      {!reading.attributes ? (
        <p className="px-3.5 py-2.5 text-[12.5px] text-stone-500">No attributes (only the 5 largest faces get them).</p>
      ) : asked.length === 0 ? (
        <p className="px-3.5 py-2.5 text-[12.5px] text-stone-500">Attributes: not requested. Tick some under Attributes and run again.</p>
      ) : (
        <table className="w-full table-fixed text-[12.5px]">
          <tbody>
            {asked.flatMap((f) =>
              f.rows.map((r) => (
                <tr key={`${f.family.type}-${r.label}`} className="border-b border-stone-100 last:border-0">
                  <th scope="row" className="w-[42%] py-1.5 pl-3.5 pr-2 text-left font-normal text-stone-500">
                    {r.label}
                  </th>
                  <td className="break-words py-1.5 pr-3.5 font-medium tabular-nums text-stone-800">{r.value}</td>
                </tr>
              )),
            )}
            {notAsked.map((f) => (
              <tr key={f.family.type} className="border-b border-stone-100 last:border-0">
                <th scope="row" className="w-[42%] py-1.5 pl-3.5 pr-2 text-left font-normal text-stone-600">
                  {f.family.label}
                </th>
                <td className="py-1.5 pr-3.5 text-stone-600">not requested</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function FaceAnalysisView({ photoUrl, body, loading = false, requested, responseKey }: FaceAnalysisViewProps) {
  const answer = useMemo(() => readFaceAnswer(body), [body]);
  const readings = useMemo(() => {
    const asked = requestedFamilies(requested);
    return answer.faces.map((f) => readFace(f, asked));
  }, [answer, requested]);
  const [tab, setTab] = useState<'faces' | 'json'>('faces');
  const [chosen, setChosen] = useState(0);
  const [previewed, setPreviewed] = useState<number>();
  const count = answer.faces.length;
  const shown = previewed ?? (chosen < count ? chosen : undefined);
  const pointing: Pointing = { shown, chosen, preview: setPreviewed, choose: setChosen };

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-5 @2xl:flex-row" data-testid="face-analysis">
      <div className="relative min-h-[240px] min-w-0 flex-1">
        <FacePhoto url={photoUrl} answer={answer} pointing={pointing} />
      </div>
      {/* Under the photo on a narrow stage, beside it where there is room. */}
      <aside aria-label="Response details" className="flex max-h-[55%] min-h-0 w-full flex-col gap-3 @2xl:max-h-none @2xl:w-[min(400px,48%)]">
        <ViewTabs tabs={[['faces', 'Faces'], ['json', 'Raw JSON']] as const} value={tab} onChange={setTab} />
        {tab === 'json' ? (
          <div className="min-h-0 flex-1 overflow-y-auto">
            <ResponseView responseKey={responseKey} />
          </div>
        ) : loading ? (
          <p className="text-xs text-stone-600">Loading…</p>
        ) : (
          <div className="flex min-h-0 flex-1 flex-col gap-3">
            <p className="text-[12.5px] text-stone-600" data-testid="face-count">
              {count === 0 ? 'No faces found in this photo.' : count === 1 ? '1 face' : `${count} faces, largest first`}
              {answer.image && <span className="text-stone-600"> · photo {sizeText(answer.image)} px</span>}
            </p>
            {count > 0 && <FaceList faces={answer.faces} readings={readings} pointing={pointing} />}
            {shown !== undefined && (
              // p-px keeps the card's ring inside the scrolling box, which would clip it.
              <div className="min-h-0 flex-1 overflow-y-auto p-px">
                <FaceDetails face={answer.faces[shown]} reading={readings[shown]} image={answer.image} />
              </div>
            )}
          </div>
        )}
      </aside>
    </div>
  );
}
