/**
 * Lip colour: choose the face each colour is for by clicking it on the photo. The faces come from the face
 * analyzer; a click gives the colour chosen above the photo that face's box as its face_rect. A colour with no
 * face goes to the largest face, as the engine decides. The faces are looked for in the copy that will be sent
 * (fitted to the effect's limits when the photo was not), once the photo is checked, so their boxes are in
 * the pixels the engine sees.
 */
import { useState } from 'react';
import { cn } from '../../../lib/cn.ts';
import { useObjectUrl } from '../../../lib/use-object-url.ts';
import { useFaces } from '../api/find-faces.ts';
import { usePanelStore } from '../stores/panel-store.ts';
import { asLipColors } from '../utils/form-values.ts';
import type { FaceRect } from '../utils/form-values.ts';
import type { ExtraProps } from './types.ts';

const same = (a: FaceRect | undefined, b: FaceRect) => !!a && a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
const pct = (v: number, of: number) => `${(100 * v) / of}%`;

/** The file a run will send for this photo: its fitted copy where one was made, once the photo is checked. */
function useSentPhoto(slug: string, photo: File | undefined): File | undefined {
  const checked = usePanelStore((s) => s.imageProblems[slug]?.image);
  const prepared = usePanelStore((s) => s.prepared[slug]?.image);
  if (!photo || checked === undefined || checked.length > 0) return undefined;
  return prepared && prepared.source === photo ? prepared.file : photo;
}

export function LipFaces({ endpoint, values, setValue }: ExtraProps) {
  const photo = values.image instanceof File ? values.image : undefined;
  const colours = asLipColors(values.lip_color_infos);
  const [active, setActive] = useState(0);
  const sent = useSentPhoto(endpoint.slug, photo);
  const faces = useFaces(sent);
  const url = useObjectUrl(photo);
  if (!photo) return null;
  const current = Math.min(active, colours.length - 1);

  const assign = (face: FaceRect) =>
    setValue('lip_color_infos', colours.map((c, i) => (i === current ? { ...c, face } : c)));

  return (
    <section aria-label="Faces" className="space-y-2">
      <p className="text-sm font-medium text-stone-800">Faces</p>
      {colours.length > 1 && (
        <div role="radiogroup" aria-label="Colour to place" className="flex gap-2">
          {colours.map((c, i) => (
            <button key={i} type="button" role="radio" aria-checked={i === current} onClick={() => setActive(i)}
              className={cn('flex items-center gap-1.5 rounded-md px-2 py-1 text-xs ring-1 ring-inset', i === current ? 'bg-stone-900 text-white ring-stone-900' : 'bg-white text-stone-700 ring-stone-200')}>
              <span className="size-3 rounded-full" style={{ backgroundColor: c.color }} aria-hidden="true" />
              Colour {i + 1}
            </button>
          ))}
        </div>
      )}
      {!sent && <p className="text-xs text-stone-500">The faces are shown once the photo is checked.</p>}
      {sent && faces.isPending && <p className="text-xs text-stone-500">Finding faces…</p>}
      {faces.isError && <p className="text-xs text-stone-500">The faces could not be found ({faces.error.message}); colours go to the largest face.</p>}
      {faces.data && (
        <>
          <p className="text-xs text-stone-500">
            {faces.data.faces.length === 0 ? 'No face found in this photo.' : `Click a face to give it colour ${current + 1}.`}
          </p>
          <div className="relative overflow-hidden rounded-lg ring-1 ring-stone-200">
            <img src={url} alt="The photo, with its faces" className="block w-full" />
            {faces.data.faces.map((f, n) => {
              const owner = colours.findIndex((c) => same(c.face, f));
              return (
                <button key={n} type="button" aria-label={`Face ${n + 1}`} aria-pressed={owner === current && owner >= 0} onClick={() => assign(f)}
                  className="absolute rounded-sm ring-2 ring-white/80 hover:ring-amber-300"
                  style={{
                    left: pct(f.x, faces.data.width), top: pct(f.y, faces.data.height), width: pct(f.width, faces.data.width), height: pct(f.height, faces.data.height),
                    boxShadow: owner >= 0 ? `inset 0 0 0 3px ${colours[owner].color}` : undefined,
                  }}>
                  <span className="absolute -top-5 left-0 rounded bg-black/60 px-1 text-[10px] text-white">{owner >= 0 ? `${n + 1} · colour ${owner + 1}` : n + 1}</span>
                </button>
              );
            })}
          </div>
        </>
      )}
    </section>
  );
}
