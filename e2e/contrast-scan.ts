/** Shared by the browser tests and scripts/bench/measure-studio.ts. */
/**
 * Every visible element with its own text against the first opaque background behind it (WCAG ratio).
 * A string, so that no build helper of this script leaks into the page.
 */
export const contrastScan = `(() => {
  // Computed colours may be oklch(): a 1×1 canvas turns any CSS colour into sRGB bytes.
  const cv = document.createElement('canvas'); cv.width = cv.height = 1;
  const cx = cv.getContext('2d', { willReadFrequently: true });
  const parse = (c) => { cx.clearRect(0, 0, 1, 1); cx.fillStyle = c; cx.fillRect(0, 0, 1, 1); const d = cx.getImageData(0, 0, 1, 1).data; return [d[0], d[1], d[2], d[3] / 255]; };
  const lum = (rgb) => { const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4); return 0.2126 * f(rgb[0]) + 0.7152 * f(rgb[1]) + 0.0722 * f(rgb[2]); };
  // The first background that is mostly opaque, laid over white (a translucent badge over a photo counts as itself).
  const bgOf = (el) => { for (; el; el = el.parentElement) { const c = parse(getComputedStyle(el).backgroundColor); if (c[3] > 0.5) return c.slice(0, 3).map((v) => v * c[3] + 255 * (1 - c[3])); } return [255, 255, 255]; };
  const found = [];
  for (const el of document.querySelectorAll('body *')) {
    const own = [...el.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim()).map((n) => n.textContent.trim()).join(' ');
    if (!own || el.offsetParent === null || el.closest('[aria-hidden="true"], .sr-only, [disabled], option')) continue;
    const st = getComputedStyle(el); const fg = parse(st.color); const bg = bgOf(el); const a = fg[3] * Number(st.opacity);
    const mixed = fg.slice(0, 3).map((v, i) => v * a + bg[i] * (1 - a));
    const ls = [lum(mixed), lum(bg)].sort((x, y) => y - x); const ratio = (ls[0] + 0.05) / (ls[1] + 0.05);
    if (ratio < 4.5) found.push({ text: own.slice(0, 40), ratio: Math.round(ratio * 100) / 100 });
  }
  return found;
})()`;
