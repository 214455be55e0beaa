/**
 * How the showcase page names a picture and words its choices: shared by the cards, the edit form, the
 * variants table and the walls section, none of which need the others for it.
 */
import type { ShowcaseItem } from '../../shared/api-types';

export function itemName(it: ShowcaseItem): string {
  return (it.banner && it.banner.title) || it.filename || it.source_url || 'Picture ' + it.id;
}
export const AVAILABILITY: Record<string, string> = {
  available: 'Available',
  reserved: 'Reserved',
  sold: 'Sold',
  not_for_sale: 'Not for sale',
};
/** The frame styles, as the edit form and the variants table offer them. */
export const FRAMES: [string, string][] = [
  ['', 'No frame'],
  ['thin', 'Thin'],
  ['classic', 'Classic'],
  ['float', 'Float'],
  ['canvas', 'Canvas wrap'],
];
