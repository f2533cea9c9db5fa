/** Grey (BT.601 luma) planes in [0, 1] from interleaved RGB or RGBA on 0..255 (bytes or floats): the guide of the guided filter. */
export function lumaPlane(data: ArrayLike<number>, width: number, height: number, channels: number): Float32Array {
  const n = width * height;
  const out = new Float32Array(n);
  const kr = 0.299 / 255, kg = 0.587 / 255, kb = 0.114 / 255;
  for (let i = 0, j = 0; i < n; i++, j += channels) out[i] = kr * data[j] + kg * data[j + 1] + kb * data[j + 2];
  return out;
}
