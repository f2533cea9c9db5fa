import type { ImageLimits } from '../../../contract/limits.ts';

/**
 * The image control the panel renders for image fields. The app passes the upload feature's dropzone, so the
 * effects feature does not import another feature.
 */
export interface ImageInputProps {
  id: string;
  label: string;
  effectTitle: string;
  limits: ImageLimits;
  required: boolean;
  file: File | undefined;
  onFile: (file: File | undefined) => void;
  /** The limit problems of the current file, in words ([] when it fits), once measured. */
  onCheck: (problems: string[]) => void;
  describedBy?: string;
}
