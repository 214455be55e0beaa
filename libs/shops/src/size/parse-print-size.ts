import type { ShopSizeMeta } from '../shop-product';
import { inchesToCm } from '@app/catalogue';
import { isBelievable, parseSizeText, type SizeCm } from './parse-size-text';

export interface PrintSize extends SizeCm {
  source: 'metadata' | 'option';
  /** What the size was read from ("width_cm 50, height_cm 70" or the option value), for the sync report. */
  seen: string;
}

/** No believable size anywhere: reported as is and the product is not converted. */
export interface SizeUnknown {
  error: 'size_unknown';
  /** Everything that was looked at, so the merchant sees why ("Size: Large; Frame: Oak frame"). */
  seen: string;
}

export interface PrintSizeInput {
  variantMeta: ShopSizeMeta | null;
  productMeta: ShopSizeMeta | null;
  options: readonly { name: string; value: string }[];
  /** The showcase's units, for values that write none ("50 × 70"). */
  units: 'cm' | 'in';
}

// Options named like a size are read before the others, so a frame option's "2 cm border" cannot win.
const SIZE_NAME = /size|format|dimension|größe|groesse|taille|formato|tamaño|maat|storlek/iu;

function fromMeta(meta: ShopSizeMeta | null): { size: SizeCm; seen: string } | { seen: string } | null {
  if (!meta) return null;
  const parts = Object.entries(meta)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k.replace(/([A-Z])/g, '_$1').toLowerCase()} ${v}`);
  if (parts.length === 0) return null;
  const seen = parts.join(', ');
  // Centimetres win when both pairs are given: they are what the metafields name first.
  const size =
    meta.widthCm !== undefined && meta.heightCm !== undefined
      ? { widthCm: meta.widthCm, heightCm: meta.heightCm }
      : meta.widthIn !== undefined && meta.heightIn !== undefined
        ? { widthCm: inchesToCm(meta.widthIn), heightCm: inchesToCm(meta.heightIn) }
        : null;
  return size && isBelievable(size) ? { size, seen } : { seen };
}

/**
 * The real size of a print, first found wins: the variant's metadata, the product's, then the variant's option
 * values (size-named options first, then the rest, in order; see {@link parseSizeText} for what is read).
 * Metadata with only one side, or an absurd one, is passed over and named in `seen` if nothing else is found.
 */
export function parsePrintSize(input: PrintSizeInput): PrintSize | SizeUnknown {
  const seen: string[] = [];
  for (const meta of [input.variantMeta, input.productMeta]) {
    const read = fromMeta(meta);
    if (read && 'size' in read) return { ...read.size, source: 'metadata', seen: read.seen };
    if (read) seen.push(read.seen);
  }
  const ordered = [...input.options.filter((o) => SIZE_NAME.test(o.name)), ...input.options.filter((o) => !SIZE_NAME.test(o.name))];
  for (const option of ordered) {
    const size = parseSizeText(option.value, input.units);
    if (size) return { ...size, source: 'option', seen: option.value };
    seen.push(`${option.name}: ${option.value}`);
  }
  return { error: 'size_unknown', seen: seen.length > 0 ? seen.join('; ') : '(no size metadata or options)' };
}
