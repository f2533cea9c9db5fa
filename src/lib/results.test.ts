import { describe, expect, it } from 'vitest';
import { endpoints } from '../../contract/index.ts';
import { base64ToBlob, resultSources, sameOrigin } from './results.ts';

describe('resultSources', () => {
  const { commodityBackgroundRemoval, imageCropping, lipsColorChanger, queryAsyncTaskResult, apparelBackgroundRemoval, skinAnalysisAdvanced, faceAnalyzer } = endpoints;

  it('reads each result where the contract\'s shape puts it', () => {
    expect(resultSources(commodityBackgroundRemoval.result, { data: { image_url: 'http://s/results/a.png' } })).toEqual([{ label: 'Result', url: 'http://s/results/a.png' }]);
    expect(resultSources(imageCropping.result, { data: { url: 'http://s/results/c.jpg', retain_location: { x: 0, y: 0, width: 1, height: 1 } } })).toEqual([
      { label: 'Crop', url: 'http://s/results/c.jpg' },
    ]);
    expect(resultSources(lipsColorChanger.result, { result_image: 'iVBORw0KGgo=' })).toEqual([{ label: 'Result', base64: 'iVBORw0KGgo=' }]);
    expect(resultSources(queryAsyncTaskResult.result, { task_status: 2, data: { result_urls: ['http://s/results/t.png'] } })).toEqual([{ label: 'Result', url: 'http://s/results/t.png' }]);
    expect(resultSources(queryAsyncTaskResult.result, { task_status: 2, error_detail: { code: 'X' } })).toEqual([]);
    // A member in the wrong place is not a result.
    expect(resultSources(commodityBackgroundRemoval.result, { image_url: 'http://s/results/a.png' })).toEqual([]);
  });

  it('lists the apparel cutout and one result per garment class', () => {
    const body = { data: { elements: [{ image_url: 'http://s/results/all.png' }, { class_url: { tops: 'http://s/results/t.png', bag: 'http://s/results/b.png' } }] } };
    expect(resultSources(apparelBackgroundRemoval.result, body)).toEqual([
      { label: 'All garments', url: 'http://s/results/all.png' },
      { label: 'tops', url: 'http://s/results/t.png' },
      { label: 'bag', url: 'http://s/results/b.png' },
    ]);
  });

  it('takes skin maps of an analysis as images, and nothing else', () => {
    expect(resultSources(skinAnalysisAdvanced.result, { result: { skin_age: { value: 30 } }, face_maps: { red_area: 'AAAA' } })).toEqual([{ label: 'red area', base64: 'AAAA' }]);
    expect(resultSources(faceAnalyzer.result, { face_detail_infos: [] })).toEqual([]);
  });
});

describe('sameOrigin', () => {
  it('keeps URLs of the studio origin and routes others through it', () => {
    expect(sameOrigin('http://localhost:5173/results/a.png', 'http://localhost:5173')).toBe('http://localhost:5173/results/a.png');
    expect(sameOrigin('http://127.0.0.1:8787/results/a.png?x=1', 'http://localhost:5173')).toBe('/results/a.png?x=1');
  });
});

describe('base64ToBlob', () => {
  it('decodes plain and data-URL base64 and sniffs the type', async () => {
    const png = base64ToBlob('iVBORw0KGgo=');
    expect(png.type).toBe('image/png');
    expect(png.size).toBe(8);
    expect(base64ToBlob('data:image/jpeg;base64,/9j/').type).toBe('image/jpeg');
  });
});
