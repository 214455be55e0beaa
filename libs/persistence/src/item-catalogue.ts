// The catalogue fields of an item, in a file of their own: the item rows and the variants (item-variants.ts)
// both speak of them, and the variants are part of an item row.

/** How a gallery labels a work (all optional, free text). */
export interface ItemLabel {
  artist?: string;
  year?: string;
  medium?: string;
  edition?: string;
  description?: string;
}

/** Whether a work (or one of its variants) can be bought. */
export type Availability = 'available' | 'reserved' | 'sold' | 'not_for_sale';

/** The catalogue fields of an item: its label, id in the gallery's catalogue, availability and order. */
export interface ItemCatalogue {
  label: ItemLabel;
  externalId: string | null;
  availability: Availability;
  position: number | null;
}
