// How galleries label a work: sizes in both units, the wall label, availability, schema.org JSON-LD. Pure functions.
export { CM_DECIMALS, CM_PER_INCH, cmToInches, INCH_DECIMALS, inchesToCm } from './convert-length';
export { describeAvailability, type LabelAvailability } from './describe-availability';
export {
  formatDimensions,
  formatLength,
  framedDimensions,
  SIZE_DECIMALS,
  type DimensionFormatOptions,
  type Dimensions,
} from './size-format';
export { formatLabel, type ArtworkLabel, type LabelFormatOptions, type LabelRun } from './format-label';
export { jsonLdScript } from './json-ld-script';
export { AVAILABILITY_KINDS, type AvailabilityKind, type LabelItem, type LengthUnit } from './label-item';
export { parsePrice, type ParsedPrice } from './parse-price';
export {
  visualArtworkJsonLd,
  type OfferJsonLd,
  type PersonJsonLd,
  type QuantitativeValueJsonLd,
  type VisualArtworkJsonLd,
  type VisualArtworkJsonLdOptions,
} from './visual-artwork-json-ld';
