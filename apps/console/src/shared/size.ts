/**
 * Sizes as the console writes them: the public pages' one formatter (libs/catalogue size-format.ts, issue 42
 * item 7), height × width, one decimal, in the showcase's unit first. Imported by its file, not through
 * @app/catalogue: the bundle takes this one pure module, not the message catalogues or the CSV reader.
 * The console speaks English, so its numbers are English ones ("1,270 × 76.2 cm").
 */
import { formatDimensions, formatLength } from '../../../../libs/catalogue/src/label/size-format';

export type SizeUnits = 'in' | 'cm';

/** "30 × 40 in (76.2 × 101.6 cm)" for a 40 in wide picture, or its first unit alone with `oneUnit`. */
export function sizeText(
  widthInches: number,
  heightInches: number,
  units: SizeUnits,
  oneUnit = false,
  depthInches?: number | null,
): string {
  return formatDimensions({ widthInches, heightInches, depthInches }, { units, locale: 'en', oneUnit });
}

/** One length (a mat's width) the same way, in the showcase's unit alone: "5 cm", "2 in". */
export function lengthText(inches: number, units: SizeUnits): string {
  return formatLength(inches, { units, locale: 'en', oneUnit: true });
}
