import { normalizeHeader, sniffDelimiter } from './index';

describe('sniffDelimiter', () => {
  it('picks the delimiter occurring most outside quotes in the first line', () => {
    expect(sniffDelimiter('Title,Artist,Year')).toBe(',');
    expect(sniffDelimiter('Titel;Künstler;Jahr')).toBe(';');
    expect(sniffDelimiter('Title\tArtist\tYear')).toBe('\t');
    expect(sniffDelimiter('"Smith, Jane; Doe";Title')).toBe(';');
    expect(sniffDelimiter('"a ""x,y,z"" b"\tTitle')).toBe('\t');
    expect(sniffDelimiter('Title;Year\nA,B,C,D')).toBe(';');
  });

  it('prefers "," on a tie and when there is no delimiter at all', () => {
    expect(sniffDelimiter('Title')).toBe(',');
    expect(sniffDelimiter('')).toBe(',');
    expect(sniffDelimiter('a,b;c')).toBe(',');
    expect(sniffDelimiter('a;b\tc')).toBe(';');
  });
});

describe('normalizeHeader', () => {
  it('trims, lower-cases and turns runs of spaces and hyphens into "_"', () => {
    expect(normalizeHeader('Image URL')).toBe('image_url');
    expect(normalizeHeader('width-cm')).toBe('width_cm');
    expect(normalizeHeader('  Height -  cm ')).toBe('height_cm');
    expect(normalizeHeader('Width (cm)')).toBe('width_(cm)');
    expect(normalizeHeader('ÉDITION')).toBe('édition');
  });
});
