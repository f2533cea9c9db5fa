/** Confidences of the skin measures: 0.5 at a rule's threshold, toward 1 with the margin. */

/** A finding's confidence: 0.5 at the threshold, toward 1 as the evidence exceeds it. */
export const grows = (evidence: number, threshold: number) => (evidence < threshold ? 0.5 : 1 - 0.5 * Math.exp(-(evidence - threshold) / threshold));
/** An absence's confidence: toward 1 as the evidence falls below the threshold (1 with none at all). */
export const fades = (evidence: number, threshold: number) => 0.5 + 0.5 * Math.max(0, Math.min(1, 1 - evidence / threshold));
