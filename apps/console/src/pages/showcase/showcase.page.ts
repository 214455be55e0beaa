/**
 * A showcase: its pictures (upload, add by URL, edit, reorder, delete), branding with a live preview, the
 * embed snippet, the catalogue import (CSV), each picture's variants, and its gallery walls.
 */
import { api, type ApiError } from '../../shared/api';
import type { Showcase, UpdateShowcaseRequest } from '../../shared/api-types';
import { $, failed, onSubmit, say, showError } from '../../shared/dom';
import { seg } from '../../shared/format';
import { initCatalogueImport } from './catalogue/catalogue-import';
import { renderItems } from './item-cards';
import { itemName } from './item-format';
import { type BrandingForm, sc } from './showcase-state';
import { initUploads } from './uploads';
import { initVariants, variantsSync } from './variants/variants-panel';
import { galleryWalls, type GalleryWalls } from './walls/walls-section';

/** The gallery walls section: follows each load of the showcase. */
let walls: GalleryWalls;

function renderPreview(): void {
  const fd = new FormData(sc.form);
  sc.preview.style.setProperty('--primary', fd.get('primary_color') as string | null);
  sc.preview.style.setProperty('--secondary', fd.get('secondary_color') as string | null);
  sc.preview.className = 'preview layout-' + fd.get('layout_choice');
  $('.pv-tagline', sc.preview)!.textContent = (fd.get('tagline') as string | null) || 'Your tagline';
  $('.pv-desc', sc.preview)!.textContent = (fd.get('description') as string | null) || '';
}
/** Loads the showcase (the form's values too, the first time) and polls while anything is on its way. */
function load(first?: boolean): Promise<void> {
  return api<Showcase>('GET', sc.base).then(function (s) {
    if (first) {
      const b: Showcase['branding'] = s.branding || {};
      sc.form.tagline.value = b.tagline || '';
      if (b.primary_color) sc.form.primary_color.value = b.primary_color;
      if (b.secondary_color) sc.form.secondary_color.value = b.secondary_color;
      sc.form.description.value = s.description || '';
      sc.form.layout_choice.value = s.layout_choice;
      renderPreview();
      $<HTMLTextAreaElement>('#embed-snippet')!.value =
        '<iframe src="' +
        s.embed_url +
        '" title="AR showcase" width="100%" height="640" style="border:0" allow="xr-spatial-tracking; fullscreen" loading="lazy"></iframe>';
    }
    clearTimeout(sc.timer);
    // Never while a card is in the air or a new order is on its way: the next answer comes soon.
    if (sc.dragging !== null || sc.ordering) {
      sc.timer = setTimeout(load, 1000);
      return;
    }
    sc.showcase = s;
    walls.sync(s);
    // Progress without refresh: poll while anything is converting or rebuilding (a variant too).
    let busy = renderItems(s);
    if (variantsSync(s)) busy = true;
    if (busy) sc.timer = setTimeout(load, 1000);
  }, failed(sc.itemsBox));
}
export function showcasePage(): void {
  sc.actions = {
    load: function () {
      return load();
    },
    renderItems: renderItems,
  };
  const id = String(document.body.getAttribute('data-id'));
  sc.base = '/api/v2/showcases/' + seg(id);
  sc.itemsBox = $('[data-testid=items]')!;
  sc.uploads = $('[data-testid=uploads]')!;
  sc.form = $<BrandingForm>('[data-form=branding]')!;
  sc.preview = $('[data-testid=preview]')!;
  sc.form.addEventListener('input', renderPreview);
  initUploads();
  onSubmit('branding', function (f, fd) {
    const str = function (k: string) {
      return fd.get(k) as string;
    };
    const data = {
      branding: {
        tagline: str('tagline') || undefined,
        primary_color: str('primary_color'),
        secondary_color: str('secondary_color'),
      },
      layout_choice: str('layout_choice') as UpdateShowcaseRequest['layout_choice'],
      description: str('description') || null,
    } satisfies UpdateShowcaseRequest;
    api('PATCH', sc.base, data).then(
      function () {
        say('Branding saved.');
      },
      function (e: ApiError) {
        showError(f, e);
      },
    );
  });
  $('[data-action=delete-showcase]')!.addEventListener('click', function () {
    if (!confirm('Delete this showcase with all its pictures?')) return;
    api('DELETE', sc.base).then(
      function () {
        location.href = '/console/showcases';
      },
      function (e: ApiError) {
        say(e.error.message);
      },
    );
  });
  initCatalogueImport();
  initVariants();
  walls = galleryWalls(sc.base, itemName);
  load(true);
}
