/**
 * What the gallery does differently for some effects, keyed by endpoint slug: the one place for it. An
 * effect without an entry gets the plain stage: before and after (or the analysis table, for portrait
 * analysis), its results named by the contract's labels.
 */
import type { ComponentType } from 'react';
import type { GalleryItem } from '../stores/gallery-store.ts';
import { FaceAnalysisView } from './face-analysis-view.tsx';
import { useStoredBlob } from '../hooks/use-stored-blob.ts';
import { useStoredJson } from './response-view.tsx';
import { SkinReportView } from './skin-report-view.tsx';

export interface AnswerViewProps { item: GalleryItem; photoUrl: string | undefined }

export interface GalleryTraits {
  /** A done item's answer shown in a view of its own, in place of before and after. */
  AnswerView?: ComponentType<AnswerViewProps>;
  /** Results per garment class beside the main cutout: labelled by class, shown as a grid, missing ones listed. */
  classResults?: boolean;
  /** A face edit laid over the photo as it was: the result opens on the face where the photo is shown small. */
  faceFocus?: boolean;
}

/** Face analyzer answers get their own view: boxes on the photo, the faces' attributes in words. */
function FaceAnalysisItem({ item, photoUrl }: AnswerViewProps) {
  const loaded = useStoredJson(item.responseKey);
  return <FaceAnalysisView photoUrl={photoUrl} body={loaded?.value} loading={!loaded} requested={item.params.face_attributes_type} responseKey={item.responseKey} />;
}

/** Skin analysis answers get a report: marks and maps on the photo, every code in words. */
function SkinReportItem({ item, photoUrl }: AnswerViewProps) {
  const loaded = useStoredJson(item.responseKey);
  const photo = useStoredBlob(item.before.key);
  return <SkinReportView photoUrl={photoUrl} body={loaded?.value} loading={!loaded} maps={item.afters} responseKey={item.responseKey} photo={photo} />;
}

export const galleryTraits: Partial<Record<string, GalleryTraits>> = {
  'face-analyzer': { AnswerView: FaceAnalysisItem },
  'skin-analysis-advanced': { AnswerView: SkinReportItem },
  'apparel-background-removal': { classResults: true },
  // Not the square face filter: its avatar is not laid out as the photo is.
  ...Object.fromEntries(
    ['smart-skin-advanced', 'face-beauty', 'lips-color-changer', 'ai-red-lip-gloss', 'ai-beard-styling', 'ai-colored-contacts', 'ai-hair-loss-simulation', 'ai-beard-removal']
      .map((slug) => [slug, { faceFocus: true }]),
  ),
};
