import type { ImageLimits } from '../../contract/limits.ts';

/**
 * The props of an image control: the effects feature renders one for each image field, and the upload
 * feature's dropzone is that control. Declared here because features do not import each other.
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
