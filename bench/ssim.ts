/**
 * Structural similarity (SSIM, Wang et al. 2004) of two images of the same size, on luma (BT.601), over
 * 8x8 windows every 4 px, with the usual constants (K1 0.01, K2 0.03, L 255). 1 means identical.
 * Used by the animated AR benchmark to check that a faster atlas encoder keeps the picture.
 *
 * @example
 * const s = ssim(a, b, 2048, 1920, 3); // a, b: raw RGB(A) pixels
 */
export function ssim(a: Buffer, b: Buffer, width: number, height: number, channels: number): number {
  if (a.length < width * height * channels || b.length < width * height * channels) throw new Error('ssim: buffers smaller than the image');
  const ya = luma(a, width, height, channels);
  const yb = luma(b, width, height, channels);
  const C1 = (0.01 * 255) ** 2;
  const C2 = (0.03 * 255) ** 2;
  const N = 8;
  let sum = 0;
  let count = 0;
  for (let y0 = 0; y0 + N <= height; y0 += 4) {
    for (let x0 = 0; x0 + N <= width; x0 += 4) {
      let sa = 0,
        sb = 0,
        saa = 0,
        sbb = 0,
        sab = 0;
      for (let y = y0; y < y0 + N; y++) {
        for (let x = x0, i = y * width + x0; x < x0 + N; x++, i++) {
          const p = ya[i];
          const q = yb[i];
          sa += p;
          sb += q;
          saa += p * p;
          sbb += q * q;
          sab += p * q;
        }
      }
      const n = N * N;
      const ma = sa / n;
      const mb = sb / n;
      const va = saa / n - ma * ma;
      const vb = sbb / n - mb * mb;
      const cov = sab / n - ma * mb;
      sum += ((2 * ma * mb + C1) * (2 * cov + C2)) / ((ma * ma + mb * mb + C1) * (va + vb + C2));
      count++;
    }
  }
  return count ? sum / count : 1;
}

function luma(px: Buffer, width: number, height: number, channels: number): Float64Array {
  const out = new Float64Array(width * height);
  for (let i = 0, j = 0; i < out.length; i++, j += channels) out[i] = 0.299 * px[j] + 0.587 * px[j + 1] + 0.114 * px[j + 2];
  return out;
}
