/** Runs an effect's steps in order, checking the abort signal between steps (imgproxy style). */
import type { RasterImage } from '../image/raster.ts';
import type { Ctx, Effect, EffectOutput, Kit } from './effect.ts';
import { EffectError } from './effect.ts';
import { jobFacts } from './facts.ts';

export async function runEffect<P, S extends object>(
  effect: Effect<P, S>,
  input: { image: RasterImage; images?: Record<string, RasterImage>; params: P },
  kit: Kit,
): Promise<EffectOutput> {
  const ctx: Ctx<P, S> = { image: input.image, images: input.images ?? {}, params: input.params, state: {}, facts: jobFacts(input.image, kit.models), output: { images: {} } };
  for (const step of effect.steps) {
    if (kit.signal.aborted) throw new EffectError('AI_SERVICE_TIMEOUT', `${effect.slug} was stopped: it ran past its time budget`);
    await step(ctx, kit);
  }
  return ctx.output;
}
