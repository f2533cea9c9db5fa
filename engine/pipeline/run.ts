/** Runs an effect's steps in order, checking the abort signal between steps (imgproxy style). */
import { CodedError } from '../../contract/errors.ts';
import type { RasterImage } from '../image/raster.ts';
import { runStep, type Ctx, type Effect, type EffectOutput, type Kit } from './effect.ts';
import { jobFacts } from './facts.ts';
import { formatStepTimes, stepName, stepTimesLogged, timeStep, type StepTime } from './timing.ts';

export async function runEffect<P>(
  effect: Effect<P>,
  input: { image: RasterImage; images?: Record<string, RasterImage>; params: P },
  kit: Kit,
): Promise<EffectOutput> {
  const ctx: Ctx<P, object> = { image: input.image, images: input.images ?? {}, params: input.params, state: {}, facts: jobFacts(input.image, kit.models), output: { images: {} } };
  const log = stepTimesLogged();
  const times: StepTime[] | undefined = kit.onStep || log ? [] : undefined;
  for (const [i, step] of effect.steps.entries()) {
    if (kit.signal.aborted) throw new CodedError('AI_SERVICE_TIMEOUT', `${effect.slug} was stopped: it ran past its time budget`);
    if (!times) { await runStep(step, ctx, kit); continue; }
    const t = await timeStep(stepName(step, i), () => runStep(step, ctx, kit));
    times.push(t);
    kit.onStep?.(t);
  }
  if (log && times) console.error(`[steps] ${effect.slug} ${input.image.width}x${input.image.height} (ms wall/cpu/models): ${formatStepTimes(times)}`);
  return ctx.output;
}
