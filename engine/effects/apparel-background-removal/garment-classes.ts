/** The seven garment classes of the endpoint and the parse labels each one collects. */
import { garmentClasses } from '../../../contract/endpoints/apparel-background-removal.ts';
import { L } from './garments/scene.ts';

export type GarmentClass = (typeof garmentClasses)[number];
export { garmentClasses };

/** Parse label of each class. */
export const classLabel: Record<GarmentClass, number> = {
  tops: L.tops, coat: L.coat, skirt: L.skirt, pants: L.pants, bag: L.bag, shoes: L.shoes, hat: L.hat,
};

/** Every label that counts as clothing for out_mode 0 (all the clothing, bags and shoes included). */
export const clothingLabels: readonly number[] = garmentClasses.map((c) => classLabel[c]);

/** 1 where the label is one of `labels`, else 0. */
export function selectLabels(labels: Uint8Array, wanted: readonly number[]): Uint8Array {
  const on = new Uint8Array(256);
  for (const l of wanted) on[l] = 1;
  const out = new Uint8Array(labels.length);
  for (let i = 0; i < labels.length; i++) out[i] = on[labels[i]];
  return out;
}
