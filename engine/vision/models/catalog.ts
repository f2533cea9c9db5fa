/**
 * Every model as data: where its weights come from and how to load it. Weights load from node_modules
 * only; nothing downloads at run time.
 */
import type { ModelOptions } from './registry.ts';

export interface CatalogEntry {
  id: string;
  description: string;
  load: (options: ModelOptions) => Promise<unknown>;
}

export const catalog: Record<string, CatalogEntry> = {};

export type ModelId = string;
