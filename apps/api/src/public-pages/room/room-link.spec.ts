import { interactivePage, type ReadyModel } from '../embed/embed-page';
import { launchPresentation } from '../platform';
import { defaultReference } from './room-page';
import { roomLink } from './room-link';

const ROOM = 'https://ar.example/showcase/shw_x/items/7/room?variant=A%26B&embed=1&lang=de';

function model(placement: 'wall' | 'floor', roomUrl?: string): ReadyModel {
  return {
    pageUrl: 'https://ar.example/embed/emb_x',
    posterUrl: 'https://ar.example/files/p.png',
    glbUrl: 'https://ar.example/files/m.glb',
    usdzUrl: 'https://ar.example/files/m.usdz',
    widthInches: 24,
    heightInches: 36,
    qrSvg: '<svg></svg>',
    assetBase: 'https://ar.example',
    presentation: launchPresentation({ dimensions: { width_inches: 24, height_inches: 36 }, placement, banner: {} }),
    loc: { locale: 'de', units: 'cm', lang: 'de' },
    ...(roomUrl ? { roomUrl } : {}),
  };
}

describe('the room view link', () => {
  it('names the view in the page language, escapes the address, and says without a script what it needs', () => {
    expect(roomLink(ROOM, { locale: 'de', units: 'cm' })).toBe(
      `<a class="room-btn" href="${ROOM.replace(/&/g, '&amp;')}">An Ihrer Wand, aus einem Foto</a><noscript><span class="needs-js">(benötigt JavaScript)</span></noscript>`,
    );
    expect(roomLink('x"y', { locale: 'ja', units: 'in' }, { swappable: true })).toContain(
      'href="x&quot;y" data-v-href="room">写真で自分の壁に飾る</a>',
    );
  });

  it('sits on the embed page of a wall picture only, inside the frame (no target)', () => {
    const html = interactivePage(model('wall', ROOM), 'desktop');
    expect(html).toContain(`<a class="room-link" href="${ROOM.replace(/&/g, '&amp;')}">An Ihrer Wand, aus einem Foto</a>`);
    expect(interactivePage(model('floor', ROOM), 'desktop')).not.toContain('room-link"');
    expect(interactivePage(model('wall'), 'ios')).not.toContain('room-link"');
  });

  it('starts with US Letter where sizes are in inches, A4 in centimetres', () => {
    expect(defaultReference({ locale: 'en', units: 'in' })).toBe('letter');
    expect(defaultReference({ locale: 'en', units: 'cm' })).toBe('a4');
    expect(defaultReference({ locale: 'de', units: 'cm' })).toBe('a4');
  });
});
