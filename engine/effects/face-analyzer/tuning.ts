/**
 * The face analyzer's parameters (which models answer age, gender and emotion is
 * vision/attributes/pipeline.ts's PIPELINE, shared with skin analysis): how the face is parsed for the part attributes, the hair mask's matte and side, and how many points the
 * part measures read. The rules' fitted tables stay beside the rules that read them: RULES and PROTOTYPES
 * in analysis/geometry-attributes.ts (printed by scripts/quality/face-geometry.ts --fit) and RULES in
 * analysis/part-attributes.ts (set on the fit half of the labelled faces).
 */
import type { PersonModel } from '../../vision/matting/person.ts';
import type { ParseOptions } from '../../vision/parsing/face-parsing.ts';

/**
 * How the face analyzer parses a face for these attributes: only the classes part-measures.ts reads are
 * brought to full resolution (background and cloth, the largest, are not). At the parser's full 512 px:
 * smaller inputs lost accuracy on the shared faces (docs/experiments/face-analyzer.md#the-face-parsers-input-side).
 */
export const ANALYZER_PARSING: ParseOptions = {
  classes: ['skin', 'glasses', 'leftEye', 'rightEye', 'hat', 'nose', 'upperLip', 'lowerLip', 'mouth', 'hair'],
  // Not the int8 network (`int8: true`, half the parse's CPU): it moved two check-half faces the wrong way (a
  // moustache, a skin colour) for one right on the fit half (docs/experiments/face-analyzer.md#fewer-and-cheaper-network-runs-2026-12-08-branch-h-faspeed4).
};

/**
 * RVM's input side for the hair mask: 256 against its usual 512 (every person matte's) left every part
 * attribute's accuracy on both halves of the shared faces as it was (scripts/quality/face-parts.ts with
 * ATELIER_RVM_SIDE), at a fraction of the matte's CPU: hair length reads how far down the hair goes in face
 * widths, which a coarser matte still tells.
 */
export const HAIR_RVM_SIDE = 256;

/**
 * The person matte the hair mask is cut from. Human's selfie and meet models were cheaper than RVM on tfjs
 * (RVM now runs on onnxruntime, at about a tenth of that), but hair colour falls back to the mask on tight
 * crops where the parser sees little hair, and there they spill differently and read worse on the check
 * half. ATELIER_HAIR_MATTE in the quality script's cache compares them.
 */
export const HAIR_PERSON_MODEL: PersonModel = 'rvm';

/**
 * About how many points of the parsing window the part measures read (partsLattice: every few pixels of a
 * large face). 30 000 against 60 000 left every part attribute's accuracy on both halves of the shared faces
 * as it was (scripts/quality/face-parts.ts) for about a third less of the measures' time: they are shares, means and
 * medians over regions of thousands of points.
 */
export const PARTS_SAMPLES = 30000;

/**
 * The moustache rule's grain scale, in face widths (about 5 px on a 230 px face, 1 px below 70 px): of
 * 1/45, 1/90, 1/180 and 1/360 the one that parted the fit half's labelled moustaches widest
 * (docs/experiments/face-analyzer.md#moustache).
 */
export const MOUSTACHE_GRAIN = 1 / 45;
