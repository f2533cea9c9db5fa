/**
 * Steps of the hair loss simulation: the level read → the 5 largest faces → for each with hair to lose
 * (hair-maps.ts's hairCover: a hat, a headscarf or a bald head is left as it is), in its head frame
 * (hairline.ts), the stage's loss field turned into lost strands over the hair the parsing sees
 * (edit-hair.ts; strands.ts: the hair's own light gaps go first and its dark strands last, so thinning
 * keeps the hair's texture), the loss carried over the hair's fringe of wisps and over the band of skin in
 * the old hairline's shade, and where strands go, inside the bald head's outline (head-shape.ts: the skull
 * grown to the person matte's outline less a hair's thickness) the scalp made from the forehead
 * (scalp-layer.ts, scalp.ts: a sphere lit as the forehead is, in its colour and grain, meeting the skin
 * without a seam) shows, and outside it the backdrop, mirrored in from beyond the person's outline → the
 * photo. Parameters: tuning.ts.
 */
import type endpoint from '../../../contract/endpoints/ai-hair-loss-simulation.ts';
import type { Params } from '../../../contract/endpoint.ts';
import { encodePhoto } from '../../image/encode.ts';
import type { RasterImage } from '../../image/raster.ts';
import { CodedError } from '../../../contract/errors.ts';
import type { Ctx, Step } from '../../pipeline/effect.ts';
import type { Face } from '../../vision/faces/detect.ts';
import { eachFace, selectFaces, type PortraitState } from '../../pipeline/portrait.ts';
import { parsingPlane } from '../../vision/regions/skin-mask.ts';
import type { Rect } from '../../image/rect.ts';
import { fromHead, headFrame, parseLevel, skullSpan, type HeadFrame, type Level } from './hairline.ts';
import { editHair } from './edit-hair.ts';
import { hairAtEdge, hairCover, otherHeads } from './hair-maps.ts';
import { HEAD_WINDOW, MATTE_CLEAR, MATTE_SURE, MIN_HAIR_COVER, PARSE_INPUT, SEED } from './tuning.ts';

export type P = Params<typeof endpoint>;

export interface Levelled {
  level: Level;
  /** The photo being edited, a copy of the input's pixels. */
  pixels: Buffer;
}

export const readLevel: Step<P, object, Levelled> = (c) => {
  const level = parseLevel(String(c.params.level));
  // The contract already limits `level` to the 14 names; this guards a caller outside HTTP.
  if (!level) throw new CodedError('ERROR_INVALID_PARAMETER', 'level must be one of man_1..man_7, woman_1..woman_7');
  return { level, pixels: Buffer.from(c.image.data) };
};

export const findFaces = selectFaces<P>(() => ({ count: 5 }));

/**
 * The window a face's edit works in: its head frame from the cheeks (skin to sample when a fringe hides
 * the forehead; nothing below the brows changes) to above the skull, clipped.
 */
export function headWindow(f: HeadFrame, size: { width: number; height: number }): Rect | null {
  // A turned head's skull reaches further back and higher in the frame (skullSpan).
  const sk = skullSpan(f.mid, f.down), u0 = Math.min(-HEAD_WINDOW.side, sk.u0 - HEAD_WINDOW.skullSides * sk.a), u1 = Math.max(HEAD_WINDOW.side, sk.u0 + HEAD_WINDOW.skullSides * sk.a);
  const v1 = Math.max(HEAD_WINDOW.top, sk.top + HEAD_WINDOW.aboveSkull), v0 = HEAD_WINDOW.bottom;
  const corners = [[u0, v0], [u1, v0], [u0, v1], [u1, v1]].map(([u, v]) => fromHead(f, u, v));
  const xs = corners.map((p) => p[0]), ys = corners.map((p) => p[1]);
  const x0 = Math.max(0, Math.floor(Math.min(...xs))), y0 = Math.max(0, Math.floor(Math.min(...ys)));
  const x1 = Math.min(size.width, Math.ceil(Math.max(...xs))), y1 = Math.min(size.height, Math.ceil(Math.max(...ys)));
  return x1 > x0 && y1 > y0 ? { x0, y0, w: x1 - x0, h: y1 - y0 } : null;
}

export const simulate: Step<P, PortraitState & Levelled> = (c, kit) => eachFace(c.state.faces, kit, async (face, index) => {
  if (!face.mesh) return;
  const s = c.state;
  const frame = headFrame(face.mesh);
  const win = headWindow(frame, c.image);
  if (!win) return;
  const parsing = await c.facts.parsing(face, { input: PARSE_INPUT, classes: ['hair', 'skin', 'background'] });
  const hair = parsingPlane(parsing, ['hair'], win), background = parsingPlane(parsing, ['background'], win);
  // No hair to lose (a hat, a headscarf, a bald head): the face stays as it is, which is what it would look like.
  if (hairCover(frame, hair, win) < MIN_HAIR_COVER) return;
  // The person matte says which hair standing out of the skull is this person's and what lies behind it.
  // Big hair reaches past the parsing's square: there the matte-based hair mask says what is hair.
  const atEdge = hairAtEdge(parsing.classes.hair, parsing.win);
  const [hairAll, matte] = await Promise.all([atEdge ? c.facts.hairMask(s.faces) : null, c.facts.personMatte()]);
  const p = parsing.win, person = new Float32Array(win.w * win.h);
  for (let y = 0, i = 0; y < win.h; y++) {
    const iy = win.y0 + y, rowIn = iy >= p.y0 && iy < p.y0 + p.h;
    for (let x = 0; x < win.w; x++, i++) {
      const ix = win.x0 + x, j = iy * c.image.width + ix;
      person[i] = matte.data[j] / 255;
      // The matte-based hair only where the person matte is sure (dark backdrops pass for dark hair).
      if (hairAll && (!rowIn || ix < p.x0 || ix >= p.x0 + p.w)) hair[i] = matte.data[j] >= MATTE_SURE ? hairAll.data[j] / 255 : 0;
      if (hairAll && matte.data[j] < MATTE_CLEAR) background[i] = 1;
    }
  }
  // Another person's head is theirs: pixels nearer another face's skull (its ellipse in that face's own head
  // frame) than this one's are neither hair, skin nor backdrop to this face's edit, so it never writes there
  // nor learns from there (a neighbour's hair beside this head was thinned and filled as this head's own).
  const skin = parsingPlane(parsing, ['skin'], win);
  const theirs = otherHeads(frame, s.faces.filter((o) => o !== face && o.mesh).map((o) => headFrame(o.mesh!)), win);
  for (let i = 0; i < theirs.length; i++) if (theirs[i]) { hair[i] = 0; background[i] = 0; skin[i] = 0; }
  const pixels: RasterImage = { data: s.pixels, width: c.image.width, height: c.image.height, channels: c.image.channels };
  editHair(pixels, win, frame, s.level, { hair, skin, background, person }, SEED + index);
});

/** The largest face's hair cover as the effect sees it (hairCover), for the quality script's report. */
export async function faceHairCover(facts: Pick<Ctx['facts'], 'parsing'>, face: Face, size: { width: number; height: number }): Promise<number> {
  if (!face.mesh) return 0;
  const frame = headFrame(face.mesh), win = headWindow(frame, size);
  if (!win) return 0;
  const parsing = await facts.parsing(face, { input: PARSE_INPUT, classes: ['hair', 'skin', 'background'] });
  return hairCover(frame, parsingPlane(parsing, ['hair'], win), win);
}

export const encode: Step<P, Levelled> = async (c) => {
  c.output.images.result = await encodePhoto({ data: c.state.pixels, width: c.image.width, height: c.image.height, channels: c.image.channels });
};
