/** Turns an effect's output into the answer's members, as its contract's result shape describes them. */
import type { Endpoint } from '../../contract/endpoint.ts';
import { fillShape, type ResultLeaf } from '../../contract/result.ts';
import type { EncodedImage } from '../image/raster.ts';
import type { EffectOutput } from '../pipeline/effect.ts';
import { CodedError } from '../../contract/errors.ts';
import { resultUrl, type ResultStore } from '../results/store.ts';

export async function resultBody(endpoint: Endpoint, output: EffectOutput, results: ResultStore, base: string): Promise<Record<string, unknown>> {
  const answer = async (img: EncodedImage, as: 'url' | 'base64') =>
    (as === 'url' ? resultUrl(base, await results.save(img)) : img.data.toString('base64'));
  const resolve = async (leaf: ResultLeaf): Promise<unknown> => {
    switch (leaf.from) {
      case 'image': {
        const img = output.images[leaf.image];
        if (!img) throw new CodedError('PROCESSING_FAILURE', `${endpoint.slug} produced no ${leaf.image} image`);
        return answer(img, leaf.as);
      }
      case 'images': {
        const named = Object.entries(output.images).filter(([k]) => k.startsWith(leaf.prefix));
        return Object.fromEntries(await Promise.all(named.map(async ([k, img]) => [k.slice(leaf.prefix.length), await answer(img, leaf.as)])));
      }
      case 'value': {
        const v = output.data?.[leaf.key];
        if (v === undefined && !leaf.optional) throw new CodedError('PROCESSING_FAILURE', `${endpoint.slug} produced no ${leaf.key}`);
        return v;
      }
      default:
        throw new Error(`${endpoint.slug}: a ${leaf.from} member is not made from an effect's output`);
    }
  };
  return ((await fillShape(endpoint.result.shape, resolve)) ?? {}) as Record<string, unknown>;
}
