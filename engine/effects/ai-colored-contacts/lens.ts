/**
 * A lens from the request's free text (`name`, `desc`): its colour, how strongly it covers the iris, and
 * how dark its limbal ring is. Colours come, in this order, from hex or CSS notation, from the eye-colour
 * words below (tuned to read as an iris, not as paint), and from color-name-list's named colours.
 */
import { colornames } from 'color-name-list';
import { formatHex, parse } from 'culori';
import { RING, STRENGTH } from './tuning.ts';

export interface Lens {
  /** sRGB hex of the lens colour. */
  hex: string;
  /** What the colour was read from, for messages and logs. */
  from: string;
  /** 0..1: how far the iris moves to the lens colour. */
  strength: number;
  /** 0..1: how dark the ring at the iris's edge is drawn. */
  limbalRing: number;
}

/** Eye-colour words, as the iris looks through such a lens. Longer phrases first wins (see lensColour). */
const EYE_COLOURS: Record<string, string> = {
  'natural light brown': '#a0713f',
  'light brown': '#a0713f',
  brown: '#7e5431',
  'dark brown': '#553621',
  chocolate: '#5e3a24',
  hazel: '#8e7136',
  'hazel green': '#7d8a4a',
  amber: '#c08a2e',
  honey: '#b98a3e',
  gold: '#b8952e',
  green: '#4f8a4a',
  'light green': '#6fa565',
  emerald: '#2f8a57',
  jade: '#3f8f6b',
  grey: '#8a949c',
  gray: '#8a949c',
  silver: '#9aa3aa',
  blue: '#4a7fb5',
  'light blue': '#6c9fd0',
  'ocean blue': '#2f6f9f',
  'sky blue': '#6aa6d6',
  'ice blue': '#9cc3df',
  'blue grey': '#6f8699',
  'blue gray': '#6f8699',
  sapphire: '#2f58a8',
  aqua: '#4fa8b8',
  turquoise: '#3aa3a0',
  teal: '#327f80',
  violet: '#7a5aa8',
  purple: '#6c4a9a',
  lavender: '#8d7bbf',
  black: '#2a2624',
  red: '#8f2e2a',
};

/** The default when neither field is given (docs/interface.md#coloured-contacts). */
export const NATURAL_LIGHT_BROWN = 'natural light brown';

const STRONG = /\b(vivid|bright|bold|intense|striking|strong|vibrant|dramatic|opaque)\b/;
const SUBTLE = /\b(subtle|natural|soft|slight|gentle|faint|enhancing|light touch)\b/;
const NO_RING = /\b(no|without)\s+(a\s+)?(dark\s+)?(limbal\s+)?ring\b/;
const RING_WORDS = /\b(limbal\s+ring|dark\s+ring|black\s+ring|ring)\b/;

const words = (s: string) => s.toLowerCase().replace(/[^a-z0-9#\s-]/g, ' ').replace(/-/g, ' ').split(/\s+/).filter(Boolean);

let namedIndex: Map<string, string> | undefined;
const named = () => (namedIndex ??= new Map(colornames.map((c) => [c.name.toLowerCase().replace(/-/g, ' '), c.hex])));

/** The lens colour named somewhere in `text`, or undefined. */
export function lensColour(text: string): { hex: string; from: string } | undefined {
  const hex = text.match(/#(?:[0-9a-f]{6}|[0-9a-f]{3})\b/i)?.[0];
  if (hex) return { hex: formatHex(parse(hex))!, from: hex };
  const css = text.match(/\b(?:rgb|hsl)a?\([^)]*\)/i)?.[0];
  if (css && parse(css)) return { hex: formatHex(parse(css))!, from: css };
  const w = words(text).filter((x) => !['limbal', 'ring', 'lens', 'lenses', 'contacts', 'contact', 'eyes', 'eye', 'colour', 'color', 'with', 'a', 'and', 'the'].includes(x));
  // The longest run of words that names a colour, eye-colour words before the general list.
  for (let len = Math.min(4, w.length); len >= 1; len--) {
    for (let i = 0; i + len <= w.length; i++) {
      const phrase = w.slice(i, i + len).join(' ');
      if (EYE_COLOURS[phrase]) return { hex: EYE_COLOURS[phrase], from: phrase };
    }
    for (let i = 0; i + len <= w.length; i++) {
      const phrase = w.slice(i, i + len).join(' ');
      const hexOf = named().get(phrase);
      if (hexOf) return { hex: hexOf, from: phrase };
    }
  }
  return undefined;
}

/**
 * The lens the fields describe, or an error message naming what was wrong. Neither field: natural light
 * brown. Strength and ring come from words such as "subtle", "vivid", "dark limbal ring", "no ring".
 */
export function readLens(name?: string, desc?: string): Lens | { error: string } {
  const text = [name, desc].filter((s) => s && s.trim()).join(' ').trim();
  const colour = lensColour(text || NATURAL_LIGHT_BROWN);
  if (!colour) {
    return { error: `name/desc: no lens colour found in "${text.slice(0, 80)}"; name one, e.g. "ocean blue", "hazel", "grey", "emerald", or a hex code like #3a7bd5` };
  }
  const t = text.toLowerCase();
  const strength = STRONG.test(t) ? STRENGTH.strong : SUBTLE.test(t) || !text ? STRENGTH.subtle : STRENGTH.usual;
  const limbalRing = NO_RING.test(t) ? RING.none : RING_WORDS.test(t) ? RING.asked : RING.usual;
  return { ...colour, strength, limbalRing };
}
