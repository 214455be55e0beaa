import { jsonLdScript } from './json-ld-script';
import type { LabelItem } from './label-item';
import { visualArtworkJsonLd } from './visual-artwork-json-ld';

// The `jsonld` package is not installed in this repository: the output is checked by parsing it back as
// JSON and stating the schema.org structure expected, node by node.

const url = 'https://ar.example/showcase/abc/items/7';
const imageUrl = 'https://ar.example/files/poster-7.jpg';
const cradle: LabelItem = {
  title: 'The Cradle',
  artist: 'Berthe Morisot',
  year: 'c. 1872',
  medium: 'Oil on canvas',
  edition: 'Unique',
  description: 'The artist’s sister Edma watching over her daughter.',
  width_inches: 25.6,
  height_inches: 21.7,
  depth_inches: 1.5,
  availability: 'available',
  price: '€ 1.200',
};

/** What a JSON-LD consumer receives: the script element's content, parsed. */
function parsedFromPage(obj: object): Record<string, any> {
  const m = /^<script type="application\/ld\+json">([\s\S]*)<\/script>$/.exec(jsonLdScript(obj));
  if (!m) throw new Error('not a JSON-LD script element');
  return JSON.parse(m[1]!);
}

describe('visualArtworkJsonLd', () => {
  it('describes the work as a schema.org VisualArtwork, sizes in centimetres', () => {
    expect(parsedFromPage(visualArtworkJsonLd(cradle, { url, imageUrl, units: 'cm' }))).toEqual({
      '@context': 'https://schema.org',
      '@type': 'VisualArtwork',
      url,
      image: imageUrl,
      name: 'The Cradle',
      description: 'The artist’s sister Edma watching over her daughter.',
      creator: { '@type': 'Person', name: 'Berthe Morisot' },
      artist: { '@type': 'Person', name: 'Berthe Morisot' },
      dateCreated: 'c. 1872',
      artMedium: 'Oil on canvas',
      artEdition: 'Unique',
      height: { '@type': 'QuantitativeValue', value: 55.12, unitCode: 'CMT', unitText: 'cm' },
      width: { '@type': 'QuantitativeValue', value: 65.02, unitCode: 'CMT', unitText: 'cm' },
      depth: { '@type': 'QuantitativeValue', value: 3.81, unitCode: 'CMT', unitText: 'cm' },
      offers: { '@type': 'Offer', availability: 'https://schema.org/InStock', url, price: '1200', priceCurrency: 'EUR' },
    });
  });

  it('gives sizes in inches (UN/CEFACT INH) for an inch showcase', () => {
    const ld = visualArtworkJsonLd({ width_inches: 19.685, height_inches: 30 }, { url, imageUrl, units: 'in' });
    expect(ld.width).toEqual({ '@type': 'QuantitativeValue', value: 19.69, unitCode: 'INH', unitText: 'in' });
    expect(ld.height).toEqual({ '@type': 'QuantitativeValue', value: 30, unitCode: 'INH', unitText: 'in' });
    expect(ld.depth).toBeUndefined();
  });

  it('maps availability to schema.org ItemAvailability, with no offer for a work not for sale', () => {
    const offers = (availability: LabelItem['availability']) =>
      visualArtworkJsonLd({ title: 'X', availability, price: '$500' }, { url, imageUrl, units: 'in', currency: 'USD' }).offers;
    expect(offers('available')).toEqual({
      '@type': 'Offer',
      availability: 'https://schema.org/InStock',
      url,
      price: '500',
      priceCurrency: 'USD',
    });
    expect(offers('reserved')).toEqual({
      '@type': 'Offer',
      availability: 'https://schema.org/Reserved',
      url,
      price: '500',
      priceCurrency: 'USD',
    });
    // A sold work's price is not published, as on the label.
    expect(offers('sold')).toEqual({ '@type': 'Offer', availability: 'https://schema.org/SoldOut', url });
    expect(offers('not_for_sale')).toBeUndefined();
    expect(offers(undefined)?.availability).toBe('https://schema.org/InStock');
  });

  it('keeps a price it cannot read unambiguously as the offer’s description', () => {
    const offer = (price: string, currency?: string) => visualArtworkJsonLd({ price }, { url, imageUrl, units: 'in', currency }).offers;
    expect(offer('$1,200')).toEqual({ '@type': 'Offer', availability: 'https://schema.org/InStock', url, description: '$1,200' });
    expect(offer('$1,200', 'USD')).toEqual({
      '@type': 'Offer',
      availability: 'https://schema.org/InStock',
      url,
      price: '1200',
      priceCurrency: 'USD',
    });
    expect(offer('Price on request', 'EUR')).toEqual({
      '@type': 'Offer',
      availability: 'https://schema.org/InStock',
      url,
      description: 'Price on request',
    });
    expect(offer('  ', 'EUR')).toEqual({ '@type': 'Offer', availability: 'https://schema.org/InStock', url });
  });

  it('leaves absent fields out rather than writing null or empty strings', () => {
    const ld = visualArtworkJsonLd(
      { title: ' ', artist: null, year: '', width_inches: 0, height_inches: null, availability: 'not_for_sale' },
      { url, imageUrl, units: 'cm' },
    );
    expect(ld).toEqual({ '@context': 'https://schema.org', '@type': 'VisualArtwork', url, image: imageUrl });
    expect(JSON.stringify(ld)).not.toMatch(/null|""/);
  });
});
