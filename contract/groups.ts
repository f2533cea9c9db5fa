/** Endpoint groups of the interface (docs/interface.md#endpoints), in the order the studio's sidebar shows them. */
export const groups = [
  { id: 'cutout', title: 'Background removal', prefix: '/api/cutout/general/' },
  { id: 'portrait-effects', title: 'Portrait effects', prefix: '/api/portrait/effects/' },
  { id: 'portrait-editing', title: 'Portrait editing', prefix: '/api/portrait/editing/' },
  { id: 'portrait-analysis', title: 'Portrait analysis', prefix: '/api/portrait/analysis/' },
  { id: 'image-editing', title: 'Image editing', prefix: '/api/image/editing/' },
  { id: 'common', title: 'Common', prefix: '/api/common/' },
] as const;

export type GroupId = (typeof groups)[number]['id'];
