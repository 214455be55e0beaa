import { esc } from '../../http/html';

/** The box the consumer asked the embed to fit (oembed.com: maxwidth / maxheight must be respected). */
export interface MaxBox {
  maxwidth?: number;
  maxheight?: number;
}

export interface Size {
  width: number;
  height: number;
}

/** A picture's frame without limits: its longer side this many CSS pixels (the embed page's poster at a readable size). */
export const PICTURE_FRAME = 640;
/** A showcase's frame without limits: its embed page is a scrolling gallery, wider than tall. */
export const SHOWCASE_FRAME: Size = { width: 800, height: 600 };
/**
 * The shapes a picture's frame keeps to: the embed page letterboxes the poster (object-fit: contain) and puts
 * its button and banner over it, so a panorama's own 8:1 would leave no room for them.
 */
export const FRAME_ASPECT = { min: 1 / 2, max: 2 } as const;

/**
 * The iframe's size: `natural`, scaled down (never up) to fit within maxwidth × maxheight, keeping its shape.
 * Whole pixels (rounded), at least 1 × 1 and never over a limit.
 *
 * @example
 * fitWithin({ width: 640, height: 427 }, { maxwidth: 320 }); // { width: 320, height: 213 }
 */
export function fitWithin(natural: Size, max: MaxBox): Size {
  const scale = Math.min(1, max.maxwidth ? max.maxwidth / natural.width : 1, max.maxheight ? max.maxheight / natural.height : 1);
  return {
    width: Math.max(1, Math.min(max.maxwidth ?? Infinity, Math.round(natural.width * scale))),
    height: Math.max(1, Math.min(max.maxheight ?? Infinity, Math.round(natural.height * scale))),
  };
}

/**
 * A picture's frame: its outer shape (width / height in inches, the frame included), clamped to FRAME_ASPECT,
 * with the longer side PICTURE_FRAME, then fitted within the consumer's box.
 *
 * @example
 * pictureFrame(24, 36, {});                  // { width: 427, height: 640 }  (2:3 portrait)
 * pictureFrame(36, 24, { maxheight: 200 });  // { width: 300, height: 200 }
 */
export function pictureFrame(widthInches: number, heightInches: number, max: MaxBox): Size {
  const raw = widthInches > 0 && heightInches > 0 ? widthInches / heightInches : 1;
  const aspect = Math.min(FRAME_ASPECT.max, Math.max(FRAME_ASPECT.min, raw));
  const natural =
    aspect >= 1 ? { width: PICTURE_FRAME, height: PICTURE_FRAME / aspect } : { width: PICTURE_FRAME * aspect, height: PICTURE_FRAME };
  return fitWithin(natural, max);
}

/** One thumbnail file the consumer may be given, with its exact size. */
export interface Thumbnail extends Size {
  url: string;
}

/**
 * The largest thumbnail that fits within the consumer's box (oembed.com: a thumbnail must respect maxwidth and
 * maxheight), or none when even the smallest is too large: the spec wants all three thumbnail fields or none.
 */
export function fittingThumbnail(candidates: readonly Thumbnail[], max: MaxBox): Thumbnail | undefined {
  const fits = candidates.filter((c) => c.width <= (max.maxwidth ?? Infinity) && c.height <= (max.maxheight ?? Infinity));
  return fits.reduce<Thumbnail | undefined>((best, c) => (!best || c.width * c.height > best.width * best.height ? c : best), undefined);
}

/**
 * The embed's HTML: one iframe of the embed page at `size`, no border (the spec asks for no padding or margins).
 * `xr-spatial-tracking` lets the page's 3D viewer start WebXR, `fullscreen` its full-screen view; lazy, so a
 * post with many embeds loads each as it scrolls into view. Every attribute is escaped (the title is the owner's).
 */
export function iframeHtml(src: string, size: Size, title: string): string {
  return (
    `<iframe src="${esc(src)}" width="${size.width}" height="${size.height}" title="${esc(title)}"` +
    ` allow="xr-spatial-tracking; fullscreen" allowfullscreen loading="lazy" style="border:0"></iframe>`
  );
}
