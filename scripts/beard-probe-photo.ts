/**
 * The shared start of the beard probes (beard-hybrid-probe.ts, beard-identity-probe.ts): a test photo
 * decoded, its 5 largest meshed faces with the styling's parsing and the beard regions, and the photo with
 * every face's own beard removed by the effect's removal.
 */
import sharp from 'sharp';
import { PARSE } from '../engine/effects/ai-beard-styling/steps.ts';
import type { RasterImage } from '../engine/image/raster.ts';
import { jobFacts } from '../engine/pipeline/facts.ts';
import type { ModelRegistry } from '../engine/vision/models/registry.ts';
import { BEARD_REGIONS, removeFaceBeard } from '../engine/looks/beard/mask.ts';

export async function decode(file: string): Promise<RasterImage> {
  const { data, info } = await sharp(file).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}

export async function shavedPhoto(file: string, models: ModelRegistry) {
  const image = await decode(file);
  const facts = jobFacts(image, models);
  const faces = (await facts.faces()).slice(0, 5).filter((f) => f.mesh);
  const parsings = await Promise.all(faces.map((f) => facts.parsing(f, PARSE)));
  const regions = faces.map((f) => facts.regions(f, BEARD_REGIONS));
  const shaved: RasterImage = { ...image, data: Buffer.from(image.data) };
  faces.forEach((f, i) => removeFaceBeard(shaved, image, f, parsings[i], regions[i]));
  return { image, faces, parsings, shaved };
}
