/** Convert: a v1 still picture and animated AR, the price shown before submitting (GET /api/v2/pricing). */
import { api, type ApiError } from '../../shared/api';
import type { AnimatedArCreated, AnimatedArRequest, ConvertRequest, ConvertResponse, PriceList } from '../../shared/api-types';
import { $, failed, fill, h, onSubmit, say, showError } from '../../shared/dom';
import { credits, jobLink, seg } from '../../shared/format';

export function convertPage(): void {
  const price = $('[data-testid=animated-price]')!;
  const result = $('[data-testid=convert-result]')!;
  let list: PriceList | null = null;
  const aform = $<HTMLFormElement>('[data-form=convert-animated]')!;
  function showPrice() {
    if (!list) return;
    const fd = new FormData(aform);
    const op = list.operations.filter(function (o) {
      return (
        o.operation === 'animated-ar' && o.source === fd.get('source') && o.remove_background === (fd.get('remove_background') === 'on')
      );
    })[0];
    price.textContent = 'Price: ' + (!list.billed ? 'free (owner)' : op ? credits(op.credits) + ' credits' : 'unknown');
  }
  api<PriceList>('GET', '/api/v2/pricing').then(function (p) {
    list = p;
    showPrice();
  }, failed(price));
  aform.addEventListener('change', showPrice);
  function started(r: ConvertResponse | AnimatedArCreated) {
    const id = r.job_id;
    fill(
      result,
      h('p', {}, ['Job ', jobLink(id), ' started. ', h('a', { href: '/console/jobs/' + seg(id), text: 'Follow its progress' })]),
    );
    say('Conversion started.');
  }
  onSubmit('convert-v1', function (form, fd) {
    const data: ConvertRequest = { image_url: fd.get('image_url') as string };
    if (fd.get('aspect_ratio')) data.aspect_ratio = fd.get('aspect_ratio') as string;
    api<ConvertResponse>('POST', '/api/v1/convert', data).then(started, function (e: ApiError) {
      showError(form, e);
    });
  });
  onSubmit('convert-animated', function (form, fd) {
    const data: AnimatedArRequest = { remove_background: fd.get('remove_background') === 'on' };
    data[fd.get('source') === 'video' ? 'video_url' : 'image_url'] = fd.get('source_url') as string;
    api<AnimatedArCreated>('POST', '/api/v2/animated-ar', data).then(started, function (e: ApiError) {
      if (e.error && /_url$/.test(e.error.param || '')) e.error.param = 'source_url';
      showError(form, e);
    });
  });
}
