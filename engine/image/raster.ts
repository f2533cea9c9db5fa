/** The engine's image vocabulary: decoded pixels in, encoded images out. Every layer above imports it from here. */

/** Raw 8-bit sRGB pixels, EXIF orientation already applied, interleaved. */
export interface RasterImage { data: Buffer; width: number; height: number; channels: 3 | 4 }

/** Interleaved 8-bit pixels (RGB or RGBA) of any buffer type: a RasterImage is one. */
export interface Pixels { data: Uint8Array; width: number; height: number; channels: number }

export interface EncodedImage { data: Buffer; format: 'png' | 'jpeg' }
