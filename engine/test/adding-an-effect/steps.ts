/** Steps of the image flip: the pixels mirrored → PNG. */
import type endpoint from './endpoint.ts';
import type { Params } from '../../../contract/endpoint.ts';
import { encodePngFast } from '../../image/encode.ts';
import type { RasterImage } from '../../image/raster.ts';
import type { Step } from '../../pipeline/effect.ts';

export type P = Params<typeof endpoint>;

export interface Flipped { flipped: RasterImage }

export const flip: Step<P, object, Flipped> = (c) => {
  const { data, width, height, channels } = c.image;
  const out = Buffer.alloc(data.length);
  const vertical = c.params.direction === 'vertical';
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const from = vertical ? ((height - 1 - y) * width + x) * channels : (y * width + width - 1 - x) * channels;
      data.copy(out, (y * width + x) * channels, from, from + channels);
    }
  }
  return { flipped: { data: out, width, height, channels } };
};

export const encode: Step<P, Flipped> = async (c) => {
  c.output.images.result = await encodePngFast(c.state.flipped);
};
