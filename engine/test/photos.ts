/** Fixture photos as the vision code sees them, for tests below engine/vision. */
import sharp from 'sharp';
import { expect } from 'vitest';
import { decodeImage } from '../image/decode.ts';
import type { RasterImage } from '../image/raster.ts';
import { detectFaces, type Face } from '../vision/faces/detect.ts';
import type { HumanLike } from '../vision/models/human.ts';
import { fixture } from './helpers.ts';

/** A fixture's pixels, alpha dropped, orientation as stored. */
export async function fixtureRaster(name: string): Promise<RasterImage> {
  const { data, info } = await sharp(fixture(name)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}

/** A fixture decoded as an upload is, with its largest face, which must have a mesh. */
export async function fixtureFace(human: HumanLike, name: string): Promise<{ image: RasterImage; face: Face }> {
  const bytes = await sharp(fixture(name)).removeAlpha().png().toBuffer();
  const image = await decodeImage(bytes, 'png', 50e6);
  const face = (await detectFaces(human, image))[0];
  expect(face?.mesh).toBeTruthy();
  return { image, face };
}
