/**
 * The shape every effect shares: a named list of small steps over one context. Effects never build
 * envelopes, URLs or task rows; they take decoded pixels and validated params and return encoded images
 * and plain data. The same effect serves sync and async routes.
 */
import type { ErrorCode } from '../../contract/errors.ts';
import type { EncodedImage, RasterImage } from '../image/raster.ts';
import type { ModelRegistry } from '../vision/models/registry.ts';

/**
 * What an effect hands back. Image names the response builder understands:
 * `result` (the main image), `class:<garment>` (apparel per-class images).
 */
export interface EffectOutput { images: Record<string, EncodedImage>; data?: Record<string, unknown> }

export interface Ctx<P = Record<string, unknown>> {
  /** The main `image` field, decoded. */
  image: RasterImage;
  /** Other image fields (e.g. `image_template`), decoded. */
  images: Record<string, RasterImage>;
  params: P;
  /** Values derived by earlier steps (matte, faces, ...). */
  values: Record<string, unknown>;
  output: EffectOutput;
}

export interface Kit { models: ModelRegistry; signal: AbortSignal }

export type Step<P = Record<string, unknown>> = (c: Ctx<P>, kit: Kit) => Promise<void> | void;

export interface Effect<P = Record<string, unknown>> {
  slug: string;
  /** Model ids from the catalog, loaded before the first run in each worker. */
  models: readonly string[];
  steps: readonly Step<P>[];
}

export const defineEffect = <P = Record<string, unknown>>(e: Effect<P>): Effect<P> => e;

/** A failure with a contract error code; the message is shown to the client, so nothing internal goes in it. */
export class EffectError extends Error {
  constructor(readonly code: ErrorCode, message: string) { super(message); }
}
