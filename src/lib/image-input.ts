import type { ImageLimits } from '../../contract/limits.ts';

export interface PreparedImage {
  /** The file as chosen; the prepared copy stands for it only while it is still the chosen one. */
  source: File;
  file: File;
  note: string;
  /** Where the copy was made smaller: the photo's size and the copy's (the result comes back at the copy's). */
  resized?: { from: Size; to: Size };
}

export interface Size {
  width: number;
  height: number;
}

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
  /**
   * The limit problems of the current file, in words ([] when it fits), once measured; `prepared` is the copy
   * converted/downsized in the browser to fit (sent instead of the file), with its one-line note.
   */
  onCheck: (problems: string[], prepared?: PreparedImage) => void;
  describedBy?: string;
  /** Several photos dropped or picked at once: run them as a batch. */
  onMany?: (files: File[]) => void;
}
