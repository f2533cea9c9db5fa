/**
 * The garment parse: the rules' parse (rules.ts), its person's garments then named again by the learned
 * model (learned.ts).
 */
import type { BodyFrame } from './body-frame.ts';
import { apparelModel, relabel, type ApparelModel } from './learned.ts';
import { parseByRules, type ParseInput, type RuleParse } from './rules.ts';
import { labelMap } from './scene.ts';

export interface GarmentParse {
  /** L.* per pixel at work size. */
  labels: Uint8Array; width: number; height: number;
  /** false: no person was found and the foreground was taken as one garment. */
  person: boolean;
  frame: BodyFrame | null;
  /** 1 where a region outside the matte was labelled (a bag the matte left out), when any was. */
  offMatte?: Uint8Array;
}

/**
 * A person's garments as the learned model names them, over the rules' parse (learned.ts); a garment
 * alone as the rules name it. `model: null` keeps the rules' labels (benchmarks, training).
 */
export function parseGarments(input: ParseInput, { model = apparelModel() as ApparelModel | null } = {}): GarmentParse {
  return namedByModel(parseByRules(input), input, { model });
}

/**
 * The second half of parseGarments, over the rules' parse of the same input: the rules read neither the
 * face parser's heads nor the model, so they may run before the heads are known.
 */
export function namedByModel(r: RuleParse, input: ParseInput, { model = apparelModel() as ApparelModel | null } = {}): GarmentParse {
  if (model && r.person) relabel(r, input, model);
  return { labels: labelMap(r.s), width: input.width, height: input.height, person: r.person, frame: r.frame, offMatte: r.offMatte };
}
