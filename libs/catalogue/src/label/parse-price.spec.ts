import { parsePrice } from './parse-price';

describe('parsePrice', () => {
  it.each([
    ['€1,200', undefined, '1200', 'EUR'],
    ['1.200 €', undefined, '1200', 'EUR'],
    ['1.200,50 €', undefined, '1200.50', 'EUR'],
    ['€ 1 200,50', undefined, '1200.50', 'EUR'],
    ['1\u202f200 €', undefined, '1200', 'EUR'],
    ['1\u00a0200,5 €', undefined, '1200.5', 'EUR'],
    ['120.000,- €', undefined, '120000', 'EUR'],
    ['1.200,– €', undefined, '1200', 'EUR'],
    ['£950', undefined, '950', 'GBP'],
    ['EUR 1,200.00', undefined, '1200.00', 'EUR'],
    ['1200 CHF', undefined, '1200', 'CHF'],
    ['CHF 3’000', undefined, '3000', 'CHF'],
    ["CHF 3'000.50", undefined, '3000.50', 'CHF'],
    ['US$1,200', undefined, '1200', 'USD'],
    ['A$ 2,500', undefined, '2500', 'AUD'],
    ['120,000円', undefined, '120000', 'JPY'],
    ['$1,200 USD', undefined, '1200', 'USD'],
    ['$1,200', 'USD', '1200', 'USD'],
    ['$1,200', 'cad', '1200', 'CAD'],
    ['¥120,000', 'JPY', '120000', 'JPY'],
    ['12 500 kr', 'SEK', '12500', 'SEK'],
    ['1200', 'EUR', '1200', 'EUR'],
    ['1,234,567.89', 'USD', '1234567.89', 'USD'],
    ['1.234.567', 'EUR', '1234567', 'EUR'],
    ['12,5', 'EUR', '12.5', 'EUR'],
    ['€ 900', 'USD', '900', 'EUR'],
  ])('reads %p (showcase currency %p) as %p %p', (text, currency, amount, code) => {
    expect(parsePrice(text, currency)).toEqual({ amount, currency: code });
  });

  it.each([
    ['$1,200', undefined, 'a dollar, but whose?'],
    ['$1,200', 'EUR', 'a dollar in a euro showcase'],
    ['¥120,000', undefined, 'yen or yuan'],
    ['12 500 kr', undefined, 'which krona'],
    ['1200', undefined, 'no currency at all'],
    ['1200', 'XYZ', 'not a currency code'],
    ['POA', 'EUR', 'price on application'],
    ['Price on request', 'EUR', 'words'],
    ['from $1,200', 'USD', 'a lower bound'],
    ['$1,200–$1,500', 'USD', 'a range'],
    ['€1,200 incl. VAT', undefined, 'a note'],
    ['$1,200 EUR', undefined, 'marks that disagree'],
    ['1200.500 €', undefined, 'three decimals'],
    ['1,20,000 €', undefined, 'groups of two'],
    ['0.500 €', undefined, 'a leading zero before a group'],
    ['1.200.50 €', undefined, 'a group of two at the end'],
    ['TBC 1200', undefined, 'three letters that are no currency'],
    ['', 'EUR', 'nothing'],
  ])('leaves %p (showcase currency %p) unread: %s', (text, currency, _why) => {
    expect(parsePrice(text, currency)).toBeUndefined();
  });
});
