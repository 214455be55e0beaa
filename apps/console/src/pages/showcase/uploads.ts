/** Adding pictures: files dropped or chosen (one upload each, with its progress) and pictures by URL. */
import { api, type ApiError, CSRF } from '../../shared/api';
import type { ShowcaseItemRequest } from '../../shared/api-types';
import { $, h, onSubmit, say, showError } from '../../shared/dom';
import { sc } from './showcase-state';

/** A control of the "frame, mat and placement for the next pictures" fieldset by id. */
function value(sel: string): string {
  return $<HTMLInputElement | HTMLSelectElement>(sel)!.value;
}

/** The frame, mat and placement chosen for the next pictures, as an item's presentation fields. */
function presentation(): Partial<ShowcaseItemRequest> {
  const item: Partial<ShowcaseItemRequest> = {};
  const style = value('#pic-frame') as 'thin' | 'classic' | 'float' | 'canvas' | '';
  if (style) item.frame = value('#pic-frame-color') ? { style: style, color: value('#pic-frame-color') } : { style: style };
  const mat = Number(value('#pic-mat'));
  if (mat > 0) item.mat = { width_inches: mat, color: value('#pic-mat-color') };
  if (value('#pic-placement')) item.placement = value('#pic-placement') as ShowcaseItemRequest['placement'];
  return item;
}

/** One request per file, so each picture shows its own upload progress (XHR reports upload bytes). */
function upload(file: File): void {
  const row = h('li', { 'data-testid': 'upload' }, [
    h('span', { text: file.name }),
    ' ',
    h('progress', { max: '100', value: '0', 'aria-label': 'Upload of ' + file.name }),
    h('span', { class: 'state', text: ' uploading' }),
  ]);
  sc.uploads.appendChild(row);
  const fd = new FormData();
  // The text field goes before the file part (the server reads the parts in order).
  fd.append('items', JSON.stringify([presentation()]));
  fd.append('files', file, file.name);
  const xhr = new XMLHttpRequest();
  xhr.open('POST', sc.base + '/items');
  xhr.setRequestHeader('X-CSRF-Token', CSRF);
  xhr.upload.onprogress = function (e) {
    if (e.lengthComputable) $<HTMLProgressElement>('progress', row)!.value = Math.round((e.loaded / e.total) * 100);
  };
  xhr.onload = function () {
    const ok = xhr.status >= 200 && xhr.status < 300;
    const msg = ok ? ' uploaded' : ' failed: ' + ((JSON.parse(xhr.responseText || '{}').error || {}).message || xhr.status);
    $('.state', row)!.textContent = msg;
    row.setAttribute('data-state', ok ? 'done' : 'failed');
    say(file.name + msg);
    sc.actions.load();
  };
  xhr.onerror = function () {
    $('.state', row)!.textContent = ' failed: network error';
    row.setAttribute('data-state', 'failed');
  };
  xhr.send(fd);
}
/** The drop zone and file picker, and the add-by-URL form. */
export function initUploads(): void {
  const drop = $('[data-testid=dropzone]')!;
  const picker = $<HTMLInputElement>('#file-input')!;
  ['dragenter', 'dragover'].forEach(function (t) {
    drop.addEventListener(t, function (e) {
      e.preventDefault();
      drop.classList.add('over');
    });
  });
  drop.addEventListener('dragleave', function () {
    drop.classList.remove('over');
  });
  drop.addEventListener('drop', function (e) {
    e.preventDefault();
    drop.classList.remove('over');
    Array.prototype.forEach.call(e.dataTransfer!.files, upload);
  });
  drop.addEventListener('click', function () {
    picker.click();
  });
  drop.addEventListener('keydown', function (e) {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      picker.click();
    }
  });
  picker.addEventListener('change', function () {
    Array.prototype.forEach.call(picker.files, upload);
    picker.value = '';
  });

  onSubmit('add-url', function (f, fd) {
    const item = presentation();
    item.image_url = fd.get('url') as string;
    api('POST', sc.base + '/items', { items: [item] }).then(
      function () {
        f.reset();
        say('Picture added.');
        sc.actions.load();
      },
      function (e: ApiError) {
        if (e.error) e.error.param = /image_url|items/.test(e.error.param || '') ? 'url' : e.error.param;
        showError(f, e);
      },
    );
  });
}
