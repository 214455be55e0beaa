import { htmlToText } from './html-to-text';

describe('htmlToText', () => {
  it('turns blocks into lines and paragraphs, decodes entities, drops tags, scripts, styles and comments', () => {
    expect(
      htmlToText('<h2>Harbour</h2><p>Giclée&nbsp;print &amp; <b>signed</b><br>50&#215;70&#x20;cm</p><ul><li>Oak</li><li>Ash</li></ul>'),
    ).toBe('Harbour\n\nGiclée print & signed\n50×70 cm\n\nOak\n\nAsh');
    expect(htmlToText('a<script type="x">alert("<p>")</script >b<style>p{}</style>c<!-- <p>hidden</p> -->d')).toBe('a b c d');
    expect(htmlToText('1 < 2 and 3 > 2 &bogus; &#0;')).toBe('1 < 2 and 3 > 2 &bogus; &#0;');
    expect(htmlToText(null)).toBe('');
    expect(htmlToText('<p>   </p>')).toBe('');
  });

  it('stays linear on hostile input (many unclosed tags) and bounds its input', () => {
    const started = performance.now();
    const out = htmlToText('<script<!--<p <'.repeat(50_000));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(out.length).toBeLessThan(200_000);
    expect(htmlToText('x'.repeat(300_000)).length).toBe(200_000);
  });
});
