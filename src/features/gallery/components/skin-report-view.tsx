/**
 * Skin analysis results as a report beside the photo: the face and a zone guide drawn on it, the lesions as
 * labelled rectangles in one colour per kind with a legend that toggles them, the returned maps over the photo
 * (the first shown at once) with a legend saying what their colour means, every code and confidence in words
 * (utils/skin-report.ts), and the skin age beside the face's estimated age. The raw answer is a tab away.
 */
import { useMemo, useState } from 'react';
import { cn } from '../../../lib/cn.ts';
import { useElementSize } from '../hooks/use-element-size.ts';
import { useStoredImageUrl } from '../hooks/use-stored-blob.ts';
import type { StoredImage } from '../stores/gallery-store.ts';
import type { Rect, Size } from '../utils/crop-overlay.ts';
import { useEstimatedAge } from '../api/estimated-age.ts';
import type { EstimatedAge } from '../api/estimated-age.ts';
import { confidenceWords, mapLegend, readSkinReport, zoneGuide } from '../utils/skin-report.ts';
import type { LesionKind } from '../utils/skin-report.ts';
import { ViewTabs } from './view-tabs.tsx';
import { ResponseView } from './response-view.tsx';

export interface SkinReportViewProps {
  photoUrl: string | undefined;
  /** The answer as stored (envelope included). */
  body: unknown;
  loading?: boolean;
  /** The maps the engine returned, stored as images (labels "red area", ...). */
  maps: StoredImage[];
  responseKey: string;
  /** The photo analysed, for the face's estimated age (asked of the face analyzer). */
  photo?: Blob;
}

const pct = (p: number) => `${Math.round(p * 100)}%`;

/** Where the photo lies in the frame when `view` (photo pixels) is fitted to it: the photo's own rectangle. */
export function fitView(natural: Size, view: Rect, frame: Size): Rect & { scale: number } {
  if (view.width <= 0 || view.height <= 0 || frame.width <= 0 || frame.height <= 0) return { x: 0, y: 0, width: 0, height: 0, scale: 0 };
  const scale = Math.min(frame.width / view.width, frame.height / view.height);
  return { x: (frame.width - view.width * scale) / 2 - view.x * scale, y: (frame.height - view.height * scale) / 2 - view.y * scale, width: natural.width * scale, height: natural.height * scale, scale };
}

/** The face with room around it (zones, hairline, jaw), kept inside the photo. */
export function faceView(face: Rect, natural: Size): Rect {
  const pad = 0.35;
  const x0 = Math.max(0, face.x - pad * face.width), y0 = Math.max(0, face.y - pad * face.height);
  const x1 = Math.min(natural.width, face.x + (1 + pad) * face.width), y1 = Math.min(natural.height, face.y + (1 + pad) * face.height);
  return { x: x0, y: y0, width: Math.max(1, x1 - x0), height: Math.max(1, y1 - y0) };
}

function MapOverlay({ map, img, opacity }: { map: StoredImage; img: Rect; opacity: number }) {
  const url = useStoredImageUrl(map.key);
  if (!url) return null;
  return (
    <img
      src={url}
      alt=""
      aria-hidden="true"
      data-testid={`map-overlay-${map.label}`}
      className="pointer-events-none absolute max-w-none"
      style={{ left: img.x, top: img.y, width: img.width, height: img.height, opacity }}
    />
  );
}

function ReportPhoto({ url, face, lesions, showZones, zoomed, map, mapOpacity }: {
  url: string | undefined; face: Rect | undefined; lesions: LesionKind[]; showZones: boolean; zoomed: boolean; map: StoredImage | undefined; mapOpacity: number;
}) {
  const [frameRef, frame] = useElementSize<HTMLDivElement>();
  const [natural, setNatural] = useState<Size>();
  const view = natural && (zoomed && face ? faceView(face, natural) : { x: 0, y: 0, ...natural });
  const img = natural && view && fitView(natural, view, frame);
  const s = img?.scale ?? 0;
  const toDisplay = (r: Rect) => ({ left: r.x * s, top: r.y * s, width: r.width * s, height: r.height * s });

  return (
    <div className="absolute inset-0 overflow-hidden rounded-lg bg-stone-100 ring-1 ring-stone-200">
      <div ref={frameRef} className="absolute inset-0 overflow-hidden" data-testid="skin-photo">
        {url && (
          <img
            src={url}
            alt="Analysed photo"
            draggable={false}
            onLoad={(e) => setNatural({ width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight })}
            className="absolute max-w-none"
            style={img && img.width > 0 ? { left: img.x, top: img.y, width: img.width, height: img.height } : { inset: 0, width: '100%', height: '100%', objectFit: 'contain' }}
          />
        )}
        {img && img.width > 0 && map && <MapOverlay map={map} img={img} opacity={mapOpacity} />}
        {img && img.width > 0 && (
          <div className="pointer-events-none absolute" style={{ left: img.x, top: img.y, width: img.width, height: img.height }} data-testid="skin-marks">
            {face && (
              <div className="absolute rounded-md ring-2 ring-white/90 shadow-[0_0_0_1px_rgba(0,0,0,0.35)]" style={toDisplay(face)} data-testid="skin-face">
                <span className="absolute bottom-full left-0 mb-0.5 whitespace-nowrap rounded bg-black/60 px-1 text-[10px] font-medium leading-4 text-white">Analysed face</span>
              </div>
            )}
            {face && showZones && zoneGuide(face).map((z, i) => (
              <div key={i} className="absolute rounded border border-dashed border-white/80" style={toDisplay(z.rect)} data-testid="skin-zone" title={z.name}>
                <span className="absolute left-0.5 top-0 whitespace-nowrap text-[9px] font-medium leading-3 text-white [text-shadow:0_0_2px_rgba(0,0,0,0.9)]">{z.name}</span>
              </div>
            ))}
            {lesions.flatMap((k) => k.rects.map((r, i) => (
              <div
                key={`${k.key}-${i}`}
                className="absolute rounded-sm"
                data-testid={`lesion-${k.key}`}
                title={k.confidences ? `${k.label}, confidence ${pct(k.confidences[i])}` : k.label}
                style={{ ...toDisplay(r), minWidth: 4, minHeight: 4, boxShadow: `0 0 0 2px ${k.colour}` }}
              >
                <span className="absolute bottom-full left-0 mb-px whitespace-nowrap rounded-sm px-0.5 text-[9px] font-semibold leading-3 text-white" style={{ backgroundColor: k.colour }}>
                  {k.short}
                </span>
              </div>
            )))}
          </div>
        )}
      </div>
    </div>
  );
}

/** The face's estimated age beside the skin age, and how they compare, in words. */
function AgeRow({ skinAge, estimate }: { skinAge: number | undefined; estimate: { data?: EstimatedAge | null; isPending: boolean; isError: boolean } }) {
  const e = estimate.data;
  const words = estimate.isError
    ? 'not available now (the face analyzer did not answer)'
    : estimate.isPending
      ? 'asking the face analyzer…'
      : !e
        ? 'no age found for this face'
        : e.orMore
          ? `${e.years} years or more`
          : `about ${e.years} years`;
  const gap = e && skinAge !== undefined && !e.orMore ? Math.round(skinAge - e.years) : undefined;
  return (
    <tr className="border-b border-stone-100 last:border-0" data-testid="estimated-age">
      <th scope="row" className="w-[42%] py-1.5 pl-3.5 pr-2 text-left font-normal text-stone-600">Estimated age of the face</th>
      <td className="py-1.5 pr-3.5 font-medium text-stone-800">
        {words}
        {gap !== undefined && (
          <span className="block text-[11.5px] font-normal text-stone-500">
            {Math.abs(gap) <= 2 ? 'The skin looks its age.' : `The skin looks ${Math.abs(gap)} years ${gap > 0 ? 'older' : 'younger'} than the face.`}
          </span>
        )}
      </td>
    </tr>
  );
}

export function SkinReportView({ photoUrl, body, loading = false, maps, responseKey, photo }: SkinReportViewProps) {
  const report = useMemo(() => readSkinReport(body), [body]);
  const [tab, setTab] = useState<'report' | 'json'>('report');
  const [hidden, setHidden] = useState<Set<string>>(() => new Set());
  const [showZones, setShowZones] = useState(true);
  const [zoomed, setZoomed] = useState(true);
  // The first map is shown at once (null: the user hid them all).
  const [mapLabel, setMapLabel] = useState<string | null>();
  const [mapOpacity, setMapOpacity] = useState(0.8);
  const map = mapLabel === null ? undefined : (maps.find((m) => m.label === mapLabel) ?? (mapLabel === undefined ? maps[0] : undefined));
  const legend = map && mapLegend(map.label);
  const skinAge = report.measures.find((m) => m.key === 'skin_age');
  const skinYears = skinAge ? Number.parseInt(skinAge.words, 10) : undefined;
  const estimate = useEstimatedAge(responseKey, photo, report.face, !loading && !!skinAge);
  const shownLesions = report.lesions.filter((k) => !hidden.has(k.key));
  const toggle = (key: string) => setHidden((h) => { const n = new Set(h); if (n.has(key)) n.delete(key); else n.add(key); return n; });

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-5 @2xl:flex-row" data-testid="skin-report">
      <div className="relative min-h-[280px] min-w-0 flex-1">
        <ReportPhoto url={photoUrl} face={report.face} lesions={shownLesions} showZones={showZones} zoomed={zoomed} map={map} mapOpacity={mapOpacity} />
        {report.face && (
          <button
            type="button"
            aria-pressed={zoomed}
            onClick={() => setZoomed((v) => !v)}
            className="absolute right-2 top-2 rounded-md bg-white/90 px-2 py-1 text-[12px] font-medium text-stone-800 shadow-sm ring-1 ring-stone-300 hover:bg-white"
          >
            {zoomed ? 'Whole photo' : 'Zoom to face'}
          </button>
        )}
      </div>
      <aside aria-label="Response details" className="flex max-h-[60%] min-h-0 w-full flex-col gap-3 @2xl:max-h-none @2xl:w-[min(400px,48%)]">
        <ViewTabs tabs={[['report', 'Skin report'], ['json', 'Raw JSON']] as const} value={tab} onChange={setTab} />
        {tab === 'json' ? (
          <div className="min-h-0 flex-1 overflow-y-auto"><ResponseView responseKey={responseKey} /></div>
        ) : loading ? (
          <p className="text-xs text-stone-400">Loading…</p>
        ) : (
          <div className="min-h-0 flex-1 space-y-3 overflow-y-auto p-px">
            {report.warnings.map((w) => <p key={w} role="note" className="rounded-lg bg-amber-50 px-3 py-2 text-[12.5px] text-amber-900 ring-1 ring-amber-200">{w}</p>)}
            <section aria-label="Marks on the photo" className="rounded-xl bg-white p-3 ring-1 ring-stone-200">
              <h3 className="mb-2 text-[12.5px] font-semibold text-stone-800">On the photo</h3>
              <ul className="flex flex-wrap gap-1.5">
                {report.lesions.map((k) => (
                  <li key={k.key}>
                    <button
                      type="button"
                      aria-pressed={!hidden.has(k.key)}
                      onClick={() => toggle(k.key)}
                      className={cn('inline-flex items-center gap-1.5 rounded-full px-2.5 py-1 text-[12.5px] ring-1 ring-inset', hidden.has(k.key) ? 'text-stone-500 ring-stone-200' : 'bg-stone-50 text-stone-800 ring-stone-300')}
                    >
                      <span className="size-2.5 rounded-sm" style={{ boxShadow: `inset 0 0 0 2px ${k.colour}` }} aria-hidden="true" />
                      {k.label} <span className="tabular-nums text-stone-500">{k.rects.length}</span>
                    </button>
                  </li>
                ))}
                <li>
                  <button
                    type="button"
                    aria-pressed={showZones}
                    onClick={() => setShowZones((v) => !v)}
                    className={cn('inline-flex items-center gap-1.5 rounded-full px-2.5 py-1 text-[12.5px] ring-1 ring-inset', showZones ? 'bg-stone-50 text-stone-800 ring-stone-300' : 'text-stone-500 ring-stone-200')}
                  >
                    <span className="size-2.5 rounded-sm border border-dashed border-stone-500" aria-hidden="true" />
                    Zone guide
                  </button>
                </li>
              </ul>
              {maps.length > 0 && (
                <div className="mt-3 space-y-2" role="group" aria-label="Skin maps">
                  <div className="flex flex-wrap gap-1.5">
                    {maps.map((m) => (
                      <button
                        key={m.key}
                        type="button"
                        aria-pressed={map === m}
                        onClick={() => setMapLabel(map === m ? null : m.label)}
                        className={cn('inline-flex items-center gap-1.5 rounded-md px-2 py-1 text-[12px] font-medium ring-1 ring-inset', map === m ? 'bg-stone-900 text-white ring-stone-900' : 'text-stone-700 ring-stone-300 hover:bg-stone-50')}
                      >
                        {mapLegend(m.label) && <span className="size-2.5 rounded-full" style={{ backgroundColor: mapLegend(m.label)!.colour }} aria-hidden="true" />}
                        {mapLegend(m.label)?.label ?? m.label}
                      </button>
                    ))}
                  </div>
                  {map && (
                    <p role="note" aria-label="Map legend" className="flex items-start gap-2 text-[12px] leading-5 text-stone-700">
                      <span className="mt-1 h-2.5 w-8 shrink-0 rounded-sm" style={{ background: `linear-gradient(to right, transparent, ${legend?.colour ?? '#888'})` }} aria-hidden="true" />
                      <span><span className="font-semibold">{legend?.label ?? map.label}:</span> {legend?.meaning ?? 'shown over the photo.'}</span>
                    </p>
                  )}
                  {map && (
                    <label className="flex items-center gap-2 text-[12px] text-stone-600">
                      Map strength
                      <input type="range" min={0.2} max={1} step={0.05} value={mapOpacity} onChange={(e) => setMapOpacity(Number(e.target.value))} className="flex-1" />
                    </label>
                  )}
                </div>
              )}
            </section>
            <section aria-label="Skin measures" className="overflow-hidden rounded-xl bg-white ring-1 ring-stone-200">
              <table className="w-full table-fixed text-[12.5px]">
                <tbody>
                  {report.measures.map((m) => [
                    <tr key={m.key} className="border-b border-stone-100 last:border-0">
                      <th scope="row" className="w-[42%] py-1.5 pl-3.5 pr-2 text-left font-normal text-stone-600">{m.label}</th>
                      <td className={cn('py-1.5 pr-3.5', m.notable ? 'font-semibold text-stone-900' : 'font-medium text-stone-800')}>
                        {m.words}
                        {m.confidence !== undefined && <span className="font-normal text-stone-500" title={pct(m.confidence)}> ({confidenceWords(m.confidence)})</span>}
                      </td>
                    </tr>,
                    m.key === 'skin_age' && <AgeRow key="estimated-age" skinAge={skinYears} estimate={estimate} />,
                  ])}
                </tbody>
              </table>
            </section>
          </div>
        )}
      </aside>
    </div>
  );
}
