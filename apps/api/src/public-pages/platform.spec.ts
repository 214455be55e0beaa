import { createHash } from 'node:crypto';
import {
  httpsUrl,
  launchPresentation,
  QUICK_LOOK_TAP_SCRIPT,
  QUICK_LOOK_TAP_SCRIPT_HASH,
  quickLookHref,
  sceneViewerIntent,
  sizeLabel,
} from './platform';

const GLB = 'https://cdn.example.com/models/job_1/model.glb';
const USDZ = 'https://cdn.example.com/models/job_1/model.usdz';
const PAGE = 'https://ar.example.com/embed/emb_1';
const TAIL =
  '#Intent;scheme=https;package=com.google.android.googlequicksearchbox;action=android.intent.action.VIEW;S.browser_fallback_url=https%3A%2F%2Far.example.com%2Fembed%2Femb_1;end;';

describe('sceneViewerIntent', () => {
  it('keeps the old URL for old results: floor, real size, the generic title', () => {
    expect(sceneViewerIntent(GLB, PAGE, { title: 'Picture', placement: 'floor', allowScaling: false })).toBe(
      `intent://arvr.google.com/scene-viewer/1.2?mode=ar_preferred&file=https%3A%2F%2Fcdn.example.com%2Fmodels%2Fjob_1%2Fmodel.glb&title=Picture&resizable=false${TAIL}`,
    );
  });

  it('wall placement, locked size, title and link', () => {
    expect(
      sceneViewerIntent(GLB, PAGE, {
        title: 'Sunset',
        link: 'https://shop.example.com/p/1?ref=ar',
        placement: 'wall',
        allowScaling: false,
      }),
    ).toBe(
      'intent://arvr.google.com/scene-viewer/1.2?mode=ar_preferred&file=https%3A%2F%2Fcdn.example.com%2Fmodels%2Fjob_1%2Fmodel.glb' +
        '&title=Sunset&link=https%3A%2F%2Fshop.example.com%2Fp%2F1%3Fref%3Dar&resizable=false&enable_vertical_placement=true' +
        TAIL,
    );
  });

  it('scaling allowed: no resizable; no title or link given: none', () => {
    expect(sceneViewerIntent(GLB, PAGE, { placement: 'wall', allowScaling: true })).toBe(
      `intent://arvr.google.com/scene-viewer/1.2?mode=ar_preferred&file=https%3A%2F%2Fcdn.example.com%2Fmodels%2Fjob_1%2Fmodel.glb&enable_vertical_placement=true${TAIL}`,
    );
    expect(sceneViewerIntent(GLB, PAGE, { title: '  ', placement: 'floor', allowScaling: true })).toBe(
      `intent://arvr.google.com/scene-viewer/1.2?mode=ar_preferred&file=https%3A%2F%2Fcdn.example.com%2Fmodels%2Fjob_1%2Fmodel.glb${TAIL}`,
    );
  });

  it('encodes &, #, ; and markup in the title: no extra parameter, the intent part stays intact', () => {
    const url = sceneViewerIntent(GLB, PAGE, {
      title: 'Tom & Jerry #1; <script>alert(1)</script>',
      placement: 'wall',
      allowScaling: false,
    });
    expect(url).toContain('&title=Tom%20%26%20Jerry%20%231%3B%20%3Cscript%3Ealert(1)%3C%2Fscript%3E&resizable=false&');
    expect(url.split('#')).toHaveLength(2);
    expect(url).not.toContain('<');
    const query = new URLSearchParams(url.slice(url.indexOf('?') + 1, url.indexOf('#')));
    expect([...query.keys()]).toEqual(['mode', 'file', 'title', 'resizable', 'enable_vertical_placement']);
    expect(query.get('title')).toBe('Tom & Jerry #1; <script>alert(1)</script>');
    expect(url.endsWith(TAIL)).toBe(true);
  });

  it('cuts the title to 60 characters (code points, with an ellipsis)', () => {
    const title = `${'é'.repeat(58)}😀😀😀`;
    const url = sceneViewerIntent(GLB, PAGE, { title, placement: 'floor', allowScaling: false });
    const got = new URLSearchParams(url.slice(url.indexOf('?') + 1, url.indexOf('#'))).get('title')!;
    expect([...got]).toHaveLength(60);
    expect(got).toBe(`${'é'.repeat(58)}😀…`);
    expect(
      new URLSearchParams(
        sceneViewerIntent(GLB, PAGE, { title: 'x'.repeat(60), placement: 'floor', allowScaling: false }).split(/[?#]/)[1],
      ).get('title'),
    ).toBe('x'.repeat(60));
  });

  it('links only to https pages', () => {
    for (const link of ['javascript:alert(1)', 'http://shop.example.com/', 'not a url', 'https://user:pw@shop.example.com/']) {
      expect(sceneViewerIntent(GLB, PAGE, { link, placement: 'floor', allowScaling: false })).not.toContain('link=');
    }
  });
});

describe('quickLookHref', () => {
  it('keeps the old href for old results and for no banner', () => {
    expect(quickLookHref(USDZ, { allowScaling: false })).toBe(`${USDZ}#allowsContentScaling=0`);
    expect(quickLookHref(USDZ, { allowScaling: false, banner: {} })).toBe(`${USDZ}#allowsContentScaling=0`);
    expect(quickLookHref(USDZ, { allowScaling: true })).toBe(USDZ);
  });

  it('adds the banner parameters, percent-encoded', () => {
    expect(
      quickLookHref(USDZ, {
        allowScaling: false,
        banner: {
          title: 'Sunset & Co',
          subtitle: 'Giclée print #3',
          call_to_action: 'Add to cart',
          price: '$40',
          link_url: 'https://shop.example.com/p/1',
        },
      }),
    ).toBe(
      `${USDZ}#allowsContentScaling=0&checkoutTitle=Sunset%20%26%20Co&checkoutSubtitle=Gicl%C3%A9e%20print%20%233&callToAction=Add%20to%20cart&price=%2440`,
    );
    expect(quickLookHref(USDZ, { allowScaling: true, banner: { call_to_action: 'Buy' } })).toBe(`${USDZ}#callToAction=Buy`);
  });

  it('keeps markup in the title inside the one fragment', () => {
    const href = quickLookHref(USDZ, { allowScaling: false, banner: { title: 'Sunset <script>alert(1)</script> & Co #2' } });
    expect(href).toBe(`${USDZ}#allowsContentScaling=0&checkoutTitle=Sunset%20%3Cscript%3Ealert(1)%3C%2Fscript%3E%20%26%20Co%20%232`);
    expect(href.split('#')).toHaveLength(2);
    expect(new URLSearchParams(href.split('#')[1]).get('checkoutTitle')).toBe('Sunset <script>alert(1)</script> & Co #2');
  });

  it('appends to a fragment the file URL already has', () => {
    expect(quickLookHref(`${USDZ}#v=2`, { allowScaling: false })).toBe(`${USDZ}#v=2&allowsContentScaling=0`);
  });
});

describe('launchPresentation', () => {
  const old = { dimensions: { width_inches: 24, height_inches: 36 }, files: {}, texture: {} };

  it('is undefined for results made before presentations existed', () => {
    expect(launchPresentation(old)).toBeUndefined();
    expect(launchPresentation(null)).toBeUndefined();
  });

  it('reads placement, scaling, banner and the framed size', () => {
    expect(
      launchPresentation({
        ...old,
        placement: 'wall',
        allow_scaling: false,
        finish: 'matte',
        frame: { style: 'classic', width_inches: 1.5, depth_inches: 1.25, color: 'walnut' },
        mat: { width_inches: 0.5, color: 'white' },
        outer_dimensions: { width_inches: 28, height_inches: 40, depth_inches: 1.25 },
        banner: { title: 'Sunset', price: '$40', link_url: 'https://shop.example.com/p/1', call_to_action: 'Buy' },
      }),
    ).toEqual({
      placement: 'wall',
      allowScaling: false,
      banner: { title: 'Sunset', price: '$40', link_url: 'https://shop.example.com/p/1', call_to_action: 'Buy' },
      framed: { widthInches: 28, heightInches: 40, depthInches: 1.25 },
    });
  });

  it('is defensive: unknown placement is floor, only https links, no framed size when it equals the picture', () => {
    expect(
      launchPresentation({
        ...old,
        placement: 'ceiling',
        allow_scaling: 'yes',
        banner: { link_url: 'javascript:alert(1)', title: 7 },
        outer_dimensions: { width_inches: 24, height_inches: 36 },
      }),
    ).toEqual({ placement: 'floor', allowScaling: false, banner: {} });
    expect(launchPresentation({ ...old, placement: 'floor', allow_scaling: true })).toEqual({
      placement: 'floor',
      allowScaling: true,
      banner: {},
    });
  });
});

describe('helpers', () => {
  it('sizeLabel: the picture, and the framed size when framed', () => {
    expect(sizeLabel(24, 36)).toBe('36 × 24 in');
    expect(sizeLabel(24, 36, { placement: 'wall', allowScaling: false, banner: {}, framed: { widthInches: 28, heightInches: 40 } })).toBe(
      '36 × 24 in, 40 × 28 in framed',
    );
  });

  it('httpsUrl', () => {
    expect(httpsUrl('https://a.example/x y')).toBe('https://a.example/x%20y');
    expect(httpsUrl('http://a.example/')).toBeUndefined();
    expect(httpsUrl(undefined)).toBeUndefined();
  });

  it("the tap script hash is the script's", () => {
    expect(QUICK_LOOK_TAP_SCRIPT_HASH).toBe(`'sha256-${createHash('sha256').update(QUICK_LOOK_TAP_SCRIPT).digest('base64')}'`);
    expect(QUICK_LOOK_TAP_SCRIPT).toContain('_apple_ar_quicklook_button_tapped');
  });
});
