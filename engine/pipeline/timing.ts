/**
 * Where an effect's time goes: each step's wall and CPU ms, and the part of its wall time spent waiting on
 * models (ONNX runs, here or in the model host, and Human's tfjs runs), for bench scripts and for the
 * engine's log when ATELIER_STEP_TIMES is set. Off, it costs a check per step.
 */

import { modelClock } from '../vision/models/clock.ts';

export { modelClock };

/** One step of one run. cpuMs is the whole process's (every thread's) CPU over the step. */
export interface StepTime { step: string; ms: number; cpuMs: number; modelMs: number }

/** Whether runEffect logs each job's step times (engine log, stderr). */
export const stepTimesLogged = (): boolean => !!process.env.ATELIER_STEP_TIMES && process.env.ATELIER_STEP_TIMES !== '0';

/** A name for a step: its function's name (steps are named consts), else its position. */
export const stepName = (step: (...a: never[]) => unknown, i: number): string => step.name || `step${i + 1}`;

/** Times one step. */
export async function timeStep(name: string, run: () => Promise<void> | void): Promise<StepTime> {
  const t = performance.now(), u = process.cpuUsage(), m = modelClock();
  await run();
  const cpu = process.cpuUsage(u);
  return { step: name, ms: performance.now() - t, cpuMs: (cpu.user + cpu.system) / 1000, modelMs: modelClock() - m };
}

/** `step ms/cpu/model` pairs on one line. */
export const formatStepTimes = (times: StepTime[]): string =>
  times.map((s) => `${s.step} ${s.ms.toFixed(0)}/${s.cpuMs.toFixed(0)}/${s.modelMs.toFixed(0)}`).join(', ');
