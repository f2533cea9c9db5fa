/**
 * The 24 beard presets (docs/interface.md#beard-styling) as shapes on the canonical face (the mesh's UV
 * space: u across from the subject's right, v down; the face outline runs from v 0.11 at the hairline to
 * v 0.954 at the chin, the mouth corners sit at (0.382, 0.695) and (0.618, 0.695)). Sampled through each
 * face's mesh (shape.ts), a shape follows any face, pose and expression. Below the chin the mesh's skirt
 * carries the shapes onto the neck (to v about 1.2), where long beards hang.
 *
 * Each preset is a few parts; a part is a closed outline (laid as the coverage of a real beard's texture,
 * exemplar.ts) with how its hair grows, kept from the strand drawer this replaced: strands under stubble length
 * lay the texture finer and sparser (steps.ts isStubble) and `body` says which parts are dense; the flow (which way the
 * strands point), their length in face widths, how many times over the strands cover the part
 * (`layers`), how much they wander (`curl`, radians over a strand) and the opaque body under them (`body`,
 * the dense mass of a real beard, 0 for a trimmed outline of separate hairs).
 */

export type Flow = 'beard' | 'point' | 'moustache' | 'handlebar' | 'imperial';

export type UV = readonly [number, number];

export interface BeardPart {
  outline: readonly UV[];
  flow: Flow;
  /** Strand length in face widths. */
  length: number;
  /** How many times over the strands cover the part. */
  layers: number;
  /** Wander along a strand, radians. */
  curl: number;
  /** Opacity of the body under the strands, 0..1. */
  body: number;
}

/** beard: covers the chin; moustache: the upper lip only; sides: sideburns and jaw with the chin bare; patch: a small tuft. */
export type BeardKind = 'beard' | 'moustache' | 'sides' | 'patch';

export interface BeardPreset { name: string; kind: BeardKind; parts: readonly BeardPart[] }

/** The lower face outline, subject's right half, from the jaw's corner to the chin (the mesh's own UVs). */
const JAW: readonly UV[] = [[0.032, 0.644], [0.067, 0.73], [0.128, 0.792], [0.198, 0.832], [0.266, 0.87], [0.319, 0.898], [0.375, 0.924], [0.431, 0.944], [0.5, 0.954]];

const r3 = (x: number) => Math.round(x * 1000) / 1000;
const mirror = (pts: readonly UV[]): UV[] => pts.map(([u, v]) => [r3(1 - u), v]);
/** A symmetric outline from its right half, drawn from a point on the centre line round to another. */
const sym = (half: readonly UV[]): UV[] => [...half, ...mirror(half.slice(1, -1)).reverse()];

type Bottom = 'neat' | 'round' | 'square' | 'point';

/**
 * The lower edge of a full beard, right half from the jaw's corner to the centre: the jaw outline pushed
 * out by `under` onto the neck, dropping to `drop` at the centre in the given profile.
 */
function beardBottom(under: number, drop: number, bottom: Bottom, spread = 0.03): UV[] {
  const n = JAW.length - 1;
  return JAW.map(([u, v], k) => {
    const t = k / n;
    const profile = bottom === 'neat' ? t : bottom === 'round' ? Math.sin((t * Math.PI) / 2) : bottom === 'square' ? Math.min(1, 1.6 * t) : t ** 3;
    const extra = Math.max(0, drop - 0.954 - under) * profile;
    return [r3(u - spread * (1 - t) + (bottom === 'point' ? 0.04 * t * t : 0) * (u - 0.5) * -2), r3(v + under * (0.4 + 0.6 * t) + extra)] as UV;
  });
}

/**
 * The cheek line of a full beard (its upper edge), right half from the mouth corner out to the top of the
 * sideburn: `low` moves it down the cheek (0 natural, 0.04 a trimmed low line, -0.03 a high wild one).
 */
function cheekLine(low: number): UV[] {
  return [[0.372, 0.69], [0.36, 0.655 + low], [0.3, 0.628 + low], [0.22, 0.6 + low], [0.15, 0.565 + low], [0.1, 0.52 + low * 0.6], [0.085, 0.43]].map(([u, v]) => [u, r3(v)] as UV);
}

/**
 * A full beard's upper edge pulled halfway down toward the mouth's level (v 0.72): drawn as high as the
 * cheekbones it covered the face's sides, which the face descriptor reads most, and real cheek lines run
 * lower (docs/experiments/ai-beard-styling.md#a-full-beards-upper-edge-pulled-halfway-down-kept).
 */
const CHEEK_SQUEEZE = 0.5;
const lowered = (pts: readonly UV[]): UV[] => pts.map(([u, v]) => [u, v < 0.72 ? r3(0.72 - (0.72 - v) * (1 - CHEEK_SQUEEZE)) : v] as UV);

/** Full beard without the moustache: under the lower lip, round the mouth corner, up the cheek to the sideburn, down the jaw. */
function fullBeard(o: { low?: number; under?: number; drop: number; bottom: Bottom; spread?: number }): UV[] {
  const top: UV[] = [[0.5, 0.748], [0.45, 0.747], [0.41, 0.735], [0.385, 0.712]];
  const side: UV[] = [[0.012, 0.43], [0.0, 0.52], [0.012, 0.6]];
  return sym([...top, ...lowered([...cheekLine(o.low ?? 0), ...side]), ...beardBottom(o.under ?? 0.05, o.drop, o.bottom, o.spread)]);
}

/**
 * A moustache over the upper lip, right half from the top centre (under the nose) round the tip and back
 * along the lip: `tip` is where its end lies (below and beside the mouth corner for a chevron, curling up
 * for a handlebar), `top` how high it reaches under the nose.
 */
function moustache(o: { top?: number; tip: readonly UV[]; lip?: number }): UV[] {
  const top = o.top ?? 0.624, lip = o.lip ?? 0.014;
  return sym([[0.5, top], [0.46, top - 0.005], [0.42, top + 0.006], [0.395, top + 0.022], ...o.tip,
    [0.392, 0.682 + lip], [0.415, 0.669 + lip], [0.44, 0.659 + lip], [0.472, 0.652 + lip], [0.5, 0.655 + lip]].map(([u, v]) => [r3(u), r3(v)] as UV));
}

const TIPS: Record<string, readonly UV[]> = {
  corner: [[0.375, 0.665], [0.368, 0.7], [0.378, 0.702]],
  droop: [[0.37, 0.66], [0.352, 0.71], [0.36, 0.728], [0.378, 0.706]],
  chevron: [[0.36, 0.655], [0.35, 0.7], [0.37, 0.708]],
  pencil: [[0.385, 0.67], [0.38, 0.69]],
  handlebar: [[0.37, 0.662], [0.33, 0.672], [0.295, 0.655], [0.275, 0.625], [0.285, 0.618], [0.298, 0.64], [0.33, 0.66], [0.365, 0.69]],
  imperial: [[0.375, 0.645], [0.33, 0.628], [0.29, 0.598], [0.258, 0.566], [0.245, 0.556], [0.252, 0.585], [0.275, 0.615], [0.305, 0.648], [0.34, 0.675], [0.372, 0.695]],
  wide: [[0.365, 0.66], [0.335, 0.685], [0.33, 0.705], [0.36, 0.7], [0.38, 0.695]],
};

/** A chin beard (goatee) below the lower lip: its half width at the top and at the widest, and its bottom. */
function goatee(o: { top?: number; width: number; flare?: number; bottom: number; point?: boolean }): UV[] {
  const top = o.top ?? 0.75, w = o.width, f = o.flare ?? w;
  const half: UV[] = [[0.5, top], [0.5 - w * 0.7, top + 0.002], [0.5 - w, top + 0.03], [0.5 - f, 0.84], [0.5 - f * 0.9, 0.9],
    o.point ? [0.5 - f * 0.5, o.bottom - 0.05] : [0.5 - f * 0.75, o.bottom - 0.02], [0.5, o.bottom]];
  return sym(half.map(([u, v]) => [r3(u), r3(v)] as UV));
}

/** The band along the jaw, ear to ear, `width` tall at the sides and half as much again under the chin: a chin strap. */
function chinStrap(width: number): UV[] {
  const outer = beardBottom(0.025, 0.98, 'neat', 0.02);
  const inner = JAW.map(([u, v], k) => [r3(u + (0.5 - u) * 0.08), r3(v - width * (0.8 + 0.8 * (k / (JAW.length - 1)) ** 2))] as UV);
  const rightOuter: UV[] = [[0.02, 0.43], [0.005, 0.52], ...outer];
  const rightInner: UV[] = [[0.075, 0.43], [0.07, 0.52], ...inner];
  return [...rightOuter, ...mirror(rightOuter.slice(0, -1)).reverse(), ...mirror(rightInner.slice(0, -1)), ...[...rightInner].reverse()];
}

/** One side's mutton chop (sideburn widening down to the jaw, chin bare), subject's right; mirror for the left. */
const CHOP: readonly UV[] = [[0.02, 0.42], [0.09, 0.42], [0.11, 0.5], [0.17, 0.57], [0.26, 0.63], [0.33, 0.67], [0.33, 0.74], [0.3, 0.82], [0.25, 0.87], [0.19, 0.855], [0.12, 0.81], [0.06, 0.75], [0.02, 0.66], [0.0, 0.54]];

const SOUL: UV[] = sym([[0.5, 0.752], [0.478, 0.755], [0.472, 0.775], [0.487, 0.81], [0.5, 0.822]]);

const part = (outline: readonly UV[], flow: Flow, length: number, layers: number, curl: number, body: number): BeardPart => ({ outline, flow, length, layers, curl, body });

export const BEARD_PRESETS: readonly BeardPreset[] = [
  { name: 'FullBeardClassic', kind: 'beard', parts: [
    part(fullBeard({ drop: 1.06, bottom: 'round' }), 'beard', 0.05, 6, 0.5, 0.85),
    part(moustache({ tip: TIPS.corner, top: 0.615 }), 'moustache', 0.04, 6, 0.3, 0.8)] },
  { name: 'CorporateBeard', kind: 'beard', parts: [
    part(fullBeard({ low: 0.035, under: 0.03, drop: 0.99, bottom: 'neat', spread: 0.015 }), 'beard', 0.022, 7, 0.25, 0.8),
    part(moustache({ tip: TIPS.corner }), 'moustache', 0.02, 6, 0.2, 0.75)] },
  { name: 'Garibaldi', kind: 'beard', parts: [
    part(fullBeard({ low: -0.02, drop: 1.18, bottom: 'round', spread: 0.05 }), 'beard', 0.085, 7, 0.9, 0.9),
    part(moustache({ tip: TIPS.droop, top: 0.62 }), 'moustache', 0.045, 6, 0.5, 0.85)] },
  { name: 'Verdi', kind: 'beard', parts: [
    part(fullBeard({ low: 0.01, drop: 1.08, bottom: 'round' }), 'beard', 0.04, 6, 0.4, 0.85),
    part(moustache({ tip: TIPS.wide, top: 0.62 }), 'moustache', 0.05, 7, 0.25, 0.9)] },
  { name: 'FullBeardTapered', kind: 'beard', parts: [
    part(fullBeard({ low: 0.03, under: 0.04, drop: 1.1, bottom: 'point', spread: 0.005 }), 'point', 0.045, 6, 0.4, 0.85),
    part(moustache({ tip: TIPS.corner }), 'moustache', 0.03, 5, 0.3, 0.8)] },
  { name: 'VanDyke', kind: 'beard', parts: [
    part(goatee({ width: 0.05, flare: 0.075, bottom: 1.04, point: true }), 'point', 0.04, 6, 0.35, 0.8),
    part(moustache({ tip: TIPS.chevron }), 'moustache', 0.035, 6, 0.3, 0.8)] },
  { name: 'Bandholz', kind: 'beard', parts: [
    part(fullBeard({ low: -0.03, drop: 1.2, bottom: 'square', spread: 0.055 }), 'beard', 0.11, 8, 1.4, 0.95),
    part(moustache({ tip: TIPS.droop, top: 0.615 }), 'moustache', 0.05, 7, 0.8, 0.9)] },
  { name: 'VanDykeRefined', kind: 'beard', parts: [
    part(goatee({ top: 0.765, width: 0.042, flare: 0.07, bottom: 1.0, point: true }), 'point', 0.02, 6, 0.2, 0.75),
    part(moustache({ tip: TIPS.pencil, top: 0.645, lip: 0.004 }), 'moustache', 0.015, 6, 0.15, 0.7)] },
  { name: 'Goatee', kind: 'beard', parts: [
    part(goatee({ width: 0.07, flare: 0.085, bottom: 0.985 }), 'beard', 0.03, 6, 0.35, 0.85)] },
  { name: 'ExtendedGoatee', kind: 'beard', parts: [
    part(sym([[0.5, 0.748], [0.45, 0.747], [0.41, 0.735], [0.385, 0.712], [0.372, 0.69], [0.355, 0.7], [0.345, 0.76], [0.33, 0.82], [0.3, 0.88], [0.34, 0.93], [0.42, 0.975], [0.5, 0.995]]), 'beard', 0.032, 6, 0.35, 0.85),
    part(moustache({ tip: TIPS.corner }), 'moustache', 0.03, 6, 0.3, 0.8)] },
  { name: 'Balbo', kind: 'beard', parts: [
    part(sym([[0.5, 0.785], [0.45, 0.79], [0.4, 0.81], [0.33, 0.825], [0.28, 0.85], [0.3, 0.9], [0.37, 0.945], [0.44, 0.975], [0.5, 0.99]]), 'beard', 0.03, 6, 0.35, 0.85),
    part(SOUL, 'point', 0.02, 6, 0.25, 0.7),
    part(moustache({ tip: TIPS.corner, top: 0.635 }), 'moustache', 0.03, 6, 0.3, 0.8)] },
  { name: 'AnchorBeardClean', kind: 'beard', parts: [
    part(sym([[0.5, 0.752], [0.475, 0.755], [0.46, 0.79], [0.41, 0.83], [0.33, 0.84], [0.275, 0.835], [0.29, 0.87], [0.35, 0.915], [0.42, 0.97], [0.5, 1.02]]), 'point', 0.022, 6, 0.25, 0.8),
    part(moustache({ tip: TIPS.pencil, top: 0.64 }), 'moustache', 0.02, 6, 0.2, 0.75)] },
  { name: 'DucktailBeardPointed', kind: 'beard', parts: [
    part(fullBeard({ low: 0.025, under: 0.035, drop: 1.16, bottom: 'point', spread: 0.0 }), 'point', 0.055, 6, 0.45, 0.85),
    part(moustache({ tip: TIPS.corner }), 'moustache', 0.03, 5, 0.3, 0.8)] },
  { name: 'AnchorBeardFull', kind: 'beard', parts: [
    part(sym([[0.5, 0.75], [0.47, 0.752], [0.44, 0.78], [0.39, 0.81], [0.32, 0.815], [0.25, 0.81], [0.25, 0.86], [0.32, 0.92], [0.4, 0.99], [0.5, 1.07]]), 'point', 0.04, 7, 0.4, 0.85),
    part(moustache({ tip: TIPS.chevron }), 'moustache', 0.035, 6, 0.3, 0.85)] },
  { name: 'DucktailBeardFull', kind: 'beard', parts: [
    part(fullBeard({ low: -0.01, drop: 1.17, bottom: 'point', spread: 0.04 }), 'point', 0.07, 7, 0.6, 0.9),
    part(moustache({ tip: TIPS.droop }), 'moustache', 0.04, 6, 0.4, 0.85)] },
  { name: 'HeavyStubble', kind: 'beard', parts: [
    part(fullBeard({ low: 0.01, under: 0.035, drop: 0.99, bottom: 'neat', spread: 0.015 }), 'beard', 0.008, 1.3, 0.3, 0.22),
    part(moustache({ tip: TIPS.corner }), 'moustache', 0.007, 1.4, 0.3, 0.25)] },
  { name: 'ChevronMoustache', kind: 'moustache', parts: [
    part(moustache({ tip: TIPS.chevron, top: 0.614, lip: 0.02 }), 'moustache', 0.04, 8, 0.25, 0.9)] },
  { name: 'HandlebarMoustache', kind: 'moustache', parts: [
    part(moustache({ tip: TIPS.handlebar, top: 0.635 }), 'handlebar', 0.03, 8, 0.2, 0.85)] },
  { name: 'ImperialMoustache', kind: 'moustache', parts: [
    part(moustache({ tip: TIPS.imperial, top: 0.615 }), 'imperial', 0.05, 9, 0.45, 0.9)] },
  { name: 'CircleBeard', kind: 'beard', parts: [
    part(sym([[0.5, 0.748], [0.45, 0.747], [0.41, 0.735], [0.385, 0.712], [0.372, 0.69], [0.355, 0.71], [0.35, 0.78], [0.37, 0.86], [0.41, 0.93], [0.45, 0.955], [0.5, 0.965]]), 'beard', 0.026, 6, 0.3, 0.85),
    part(moustache({ tip: TIPS.corner }), 'moustache', 0.026, 6, 0.25, 0.8)] },
  { name: 'ChinStrap', kind: 'beard', parts: [
    part(chinStrap(0.058), 'beard', 0.018, 6, 0.25, 0.8)] },
  { name: 'MuttonChops', kind: 'sides', parts: [
    part(CHOP, 'beard', 0.04, 7, 0.6, 0.85), part(mirror(CHOP), 'beard', 0.04, 7, 0.6, 0.85)] },
  { name: 'SoulPatch', kind: 'patch', parts: [
    part(SOUL, 'point', 0.025, 7, 0.25, 0.8)] },
  { name: 'PetiteGoatee', kind: 'beard', parts: [
    part(goatee({ top: 0.79, width: 0.05, flare: 0.07, bottom: 0.965 }), 'beard', 0.02, 6, 0.25, 0.8)] },
];

export const presetByName = (name: string): BeardPreset | undefined => BEARD_PRESETS.find((p) => p.name === name);
