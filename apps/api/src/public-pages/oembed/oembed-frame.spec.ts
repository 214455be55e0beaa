import { fitWithin, fittingThumbnail, iframeHtml, pictureFrame, PICTURE_FRAME } from './oembed-frame';

describe('pictureFrame: the iframe fits the consumer box, keeping the picture shape', () => {
  it('gives the longer side PICTURE_FRAME without limits', () => {
    expect(pictureFrame(24, 36, {})).toEqual({ width: 427, height: PICTURE_FRAME });
    expect(pictureFrame(36, 24, {})).toEqual({ width: PICTURE_FRAME, height: 427 });
    expect(pictureFrame(30, 30, {})).toEqual({ width: 640, height: 640 });
  });

  it('scales down to maxwidth, maxheight or both, never up, never over either', () => {
    expect(pictureFrame(36, 24, { maxwidth: 300 })).toEqual({ width: 300, height: 200 });
    expect(pictureFrame(36, 24, { maxheight: 200 })).toEqual({ width: 300, height: 200 });
    expect(pictureFrame(36, 24, { maxwidth: 300, maxheight: 100 })).toEqual({ width: 150, height: 100 });
    expect(pictureFrame(36, 24, { maxwidth: 5000, maxheight: 5000 })).toEqual({ width: 640, height: 427 });
    for (const [w, h] of [
      [24, 36],
      [36, 24],
      [17.3, 11.9],
      [100, 1],
    ] as const) {
      for (const maxwidth of [1, 7, 99, 333, 641, undefined]) {
        for (const maxheight of [1, 13, 250, 999, undefined]) {
          const s = pictureFrame(w, h, { maxwidth, maxheight });
          expect(s.width).toBeGreaterThanOrEqual(1);
          expect(s.height).toBeGreaterThanOrEqual(1);
          expect(Number.isInteger(s.width) && Number.isInteger(s.height)).toBe(true);
          if (maxwidth) expect(s.width).toBeLessThanOrEqual(maxwidth);
          if (maxheight) expect(s.height).toBeLessThanOrEqual(maxheight);
          // The shape is kept to within a pixel's rounding wherever both sides have room for it.
          const aspect = Math.min(2, Math.max(0.5, w / h));
          if (s.width > 20 && s.height > 20) expect(Math.abs(s.width / s.height - aspect)).toBeLessThan(0.1);
        }
      }
    }
  });

  it('keeps extreme shapes between 1:2 and 2:1 (room for the button), and survives zero sizes', () => {
    expect(pictureFrame(80, 10, {})).toEqual({ width: 640, height: 320 });
    expect(pictureFrame(10, 80, {})).toEqual({ width: 320, height: 640 });
    expect(pictureFrame(0, 0, {})).toEqual({ width: 640, height: 640 });
  });

  it('fitWithin rounds to whole pixels within the limits and keeps at least one', () => {
    expect(fitWithin({ width: 800, height: 600 }, { maxwidth: 401 })).toEqual({ width: 401, height: 301 });
    expect(fitWithin({ width: 800, height: 600 }, { maxwidth: 401, maxheight: 300 })).toEqual({ width: 400, height: 300 });
    expect(fitWithin({ width: 800, height: 600 }, { maxwidth: 1, maxheight: 1 })).toEqual({ width: 1, height: 1 });
  });
});

describe('fittingThumbnail', () => {
  const thumbs = [
    { url: 'j', width: 1200, height: 800 },
    { url: 'a', width: 480, height: 320 },
    { url: 'b', width: 720, height: 480 },
    { url: 'c', width: 960, height: 640 },
  ];
  it('picks the largest within the box, none when none fits', () => {
    expect(fittingThumbnail(thumbs, {})?.url).toBe('j');
    expect(fittingThumbnail(thumbs, { maxwidth: 1000 })?.url).toBe('c');
    expect(fittingThumbnail(thumbs, { maxwidth: 1000, maxheight: 500 })?.url).toBe('b');
    expect(fittingThumbnail(thumbs, { maxheight: 320 })?.url).toBe('a');
    expect(fittingThumbnail(thumbs, { maxwidth: 479 })).toBeUndefined();
    expect(fittingThumbnail([], {})).toBeUndefined();
  });
});

describe('iframeHtml', () => {
  it('is one iframe with the size, the AR permissions and escaped attributes', () => {
    const html = iframeHtml('https://ar.example.com/embed/emb_x?variant=a&lang=de', { width: 300, height: 200 }, 'Dunes "1" <script>');
    expect(html).toBe(
      '<iframe src="https://ar.example.com/embed/emb_x?variant=a&amp;lang=de" width="300" height="200" title="Dunes &quot;1&quot; &lt;script&gt;"' +
        ' allow="xr-spatial-tracking; fullscreen" allowfullscreen loading="lazy" style="border:0"></iframe>',
    );
  });
});
