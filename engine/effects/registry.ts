/**
 * Endpoint slug → effect module. An endpoint absent here answers 501 ERROR_AI_NOT_AVAILABLE.
 * Paths are resolved inside the worker, which imports the module once and keeps it.
 */
export const effectModules: Record<string, string> = {
  'ai-beard-removal': new URL('./ai-beard-removal/effect.ts', import.meta.url).href,
  'ai-beard-styling': new URL('./ai-beard-styling/effect.ts', import.meta.url).href,
  'ai-hair-loss-simulation': new URL('./ai-hair-loss-simulation/effect.ts', import.meta.url).href,
  'ai-colored-contacts': new URL('./ai-colored-contacts/effect.ts', import.meta.url).href,
  'ai-square-face-filter': new URL('./ai-square-face-filter/effect.ts', import.meta.url).href,
  'ai-red-lip-gloss': new URL('./ai-red-lip-gloss/effect.ts', import.meta.url).href,
  'apparel-background-removal': new URL('./apparel-background-removal/effect.ts', import.meta.url).href,
  'commodity-background-removal': new URL('./commodity-background-removal/effect.ts', import.meta.url).href,
  'face-analyzer': new URL('./face-analyzer/effect.ts', import.meta.url).href,
  'face-beauty': new URL('./face-beauty/effect.ts', import.meta.url).href,
  'image-cropping': new URL('./image-cropping/effect.ts', import.meta.url).href,
  'lips-color-changer': new URL('./lips-color-changer/effect.ts', import.meta.url).href,
  'smart-skin-advanced': new URL('./smart-skin-advanced/effect.ts', import.meta.url).href,
  'skin-analysis-advanced': new URL('./skin-analysis-advanced/effect.ts', import.meta.url).href,
};
