/** Where a work stands for a buyer, as the API takes it. */
export const AVAILABILITY_KINDS = ['available', 'reserved', 'sold', 'not_for_sale'] as const;

/** One of {@link AVAILABILITY_KINDS}. */
export type AvailabilityKind = (typeof AVAILABILITY_KINDS)[number];

/** The unit a showcase states sizes in first (the other follows in brackets). */
export type LengthUnit = 'in' | 'cm';

/**
 * What the label functions read of a catalogue item: the API's snake_case fields, every one optional
 * and nullable because they come from stored JSON (a work may have only a title, or nothing but a
 * size). Text fields are free text (`year` may be "c. 1890", `price` "1.200 €"); sizes are in inches,
 * the service's one stored unit.
 */
export interface LabelItem {
  title?: string | null;
  /** The API limits it to 120 characters. */
  artist?: string | null;
  /** Free text: "1890", "c. 1890", "1889–1890". */
  year?: string | null;
  medium?: string | null;
  /** Free text ("Edition of 25") or a copy number ("3/25"). */
  edition?: string | null;
  description?: string | null;
  availability?: AvailabilityKind | null;
  /** Free text as the gallery writes it: "$1,200", "1.200 €", "¥120,000", "POA". */
  price?: string | null;
  width_inches?: number | null;
  height_inches?: number | null;
  depth_inches?: number | null;
}
