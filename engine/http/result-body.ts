/** Turns an effect's output into the response fields its contract's result kind describes. */
import type { Endpoint } from '../../contract/endpoint.ts';
import type { EffectOutput } from '../effects/effect.ts';
import { EffectError } from '../effects/effect.ts';
import { resultUrl, type ResultStore } from '../results/store.ts';

export async function resultBody(endpoint: Endpoint, output: EffectOutput, results: ResultStore, base: string): Promise<Record<string, unknown>> {
  const url = async (key: string) => {
    const img = output.images[key];
    if (!img) throw new EffectError('PROCESSING_FAILURE', `${endpoint.slug} produced no ${key} image`);
    return resultUrl(base, await results.save(img));
  };
  switch (endpoint.result) {
    case 'image_url':
      return { data: { image_url: await url('result') } };
    case 'crop':
      return { data: { url: await url('result'), retain_location: output.data?.retain_location } };
    case 'apparel': {
      const classUrl: Record<string, string> = {};
      for (const key of Object.keys(output.images).filter((k) => k.startsWith('class:'))) classUrl[key.slice(6)] = await url(key);
      return { data: { elements: [{ image_url: await url('result') }, { class_url: classUrl }] } };
    }
    case 'result_image': {
      const img = output.images.result;
      if (!img) throw new EffectError('PROCESSING_FAILURE', `${endpoint.slug} produced no image`);
      return { result_image: img.data.toString('base64') };
    }
    case 'analysis':
      return { ...output.data };
    default:
      throw new Error(`result kind ${endpoint.result} is not a sync result`);
  }
}
