
/** The image control the panel renders for image fields; the app passes the upload feature's dropzone. */
export type { ImageInputProps } from '../../lib/image-input.ts';
