/**
 * The endpoints as data (docs/interface.md#endpoints), one import and one entry per file in endpoints/: the
 * engine's routes and validation and the studio's panels read this.
 */
import apparelBackgroundRemoval from './endpoints/apparel-background-removal.ts';
import commodityBackgroundRemoval from './endpoints/commodity-background-removal.ts';
import smartSkinAdvanced from './endpoints/smart-skin-advanced.ts';
import faceBeauty from './endpoints/face-beauty.ts';
import lipsColorChanger from './endpoints/lips-color-changer.ts';
import aiSquareFaceFilter from './endpoints/ai-square-face-filter.ts';
import aiRedLipGloss from './endpoints/ai-red-lip-gloss.ts';
import aiBeardStyling from './endpoints/ai-beard-styling.ts';
import aiColoredContacts from './endpoints/ai-colored-contacts.ts';
import aiHairLossSimulation from './endpoints/ai-hair-loss-simulation.ts';
import aiBeardRemoval from './endpoints/ai-beard-removal.ts';
import skinAnalysisAdvanced from './endpoints/skin-analysis-advanced.ts';
import faceAnalyzer from './endpoints/face-analyzer.ts';
import imageCropping from './endpoints/image-cropping.ts';
import queryAsyncTaskResult from './endpoints/query-async-task-result.ts';
import type { Endpoint } from './endpoint.ts';

export const endpoints = {
  apparelBackgroundRemoval,
  commodityBackgroundRemoval,
  smartSkinAdvanced,
  faceBeauty,
  lipsColorChanger,
  aiSquareFaceFilter,
  aiRedLipGloss,
  aiBeardStyling,
  aiColoredContacts,
  aiHairLossSimulation,
  aiBeardRemoval,
  skinAnalysisAdvanced,
  faceAnalyzer,
  imageCropping,
  queryAsyncTaskResult,
} as const;

export const endpointList: readonly Endpoint[] = Object.values(endpoints);

export const endpointBySlug = (slug: string): Endpoint | undefined => endpointList.find((e) => e.slug === slug);
export const endpointByPath = (path: string): Endpoint | undefined => endpointList.find((e) => e.path === path);
