import { jsonLdScript } from './json-ld-script';

const content = (html: string) => /^<script type="application\/ld\+json">([\s\S]*)<\/script>$/.exec(html)?.[1];

describe('jsonLdScript', () => {
  it('wraps the JSON in a JSON-LD script element', () => {
    expect(jsonLdScript({ '@type': 'VisualArtwork', name: 'Sunset' })).toBe(
      '<script type="application/ld+json">{"@type":"VisualArtwork","name":"Sunset"}</script>',
    );
  });

  it('cannot be broken out of by the strings inside', () => {
    const evil = { name: '</script><script>alert(1)</script>', description: '<!-- x --> & </SCRIPT >' };
    const html = jsonLdScript(evil);
    // The only "<" left are the element's own two tags.
    expect(html.match(/</g)).toHaveLength(2);
    expect(html.toLowerCase().indexOf('</script')).toBe(html.length - '</script>'.length);
    expect(content(html)).toBe(
      '{"name":"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e","description":"\\u003c!-- x --\\u003e \\u0026 \\u003c/SCRIPT \\u003e"}',
    );
  });

  it('reads back as the same data', () => {
    const data = { name: 'A </script> & B', note: 'line\u2028separator\u2029paragraph', n: 1.5, tags: ['<', '>'] };
    expect(JSON.parse(content(jsonLdScript(data))!)).toEqual(data);
  });

  it('escapes the JavaScript line terminators U+2028 and U+2029', () => {
    const html = jsonLdScript({ s: '\u2028\u2029' });
    expect(html).not.toMatch(/[\u2028\u2029]/);
    expect(content(html)).toBe('{"s":"\\u2028\\u2029"}');
  });
});
