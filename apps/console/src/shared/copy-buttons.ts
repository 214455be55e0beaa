import { $, say } from './dom';

/** Copy buttons: data-copy names the element whose text (or value) is copied. One listener for the page. */
export function installCopyButtons(): void {
  document.addEventListener('click', function (ev) {
    const target = ev.target as Element | null;
    const btn = target && target.closest && target.closest('[data-copy]');
    if (!btn) return;
    const src = $<HTMLElement & { value?: string; select?: () => void }>(String(btn.getAttribute('data-copy')));
    const text = src ? (src.value !== undefined ? src.value : src.textContent) : '';
    const done = function () {
      btn.textContent = 'Copied';
      say('Copied to the clipboard.');
      setTimeout(function () {
        btn.textContent = 'Copy';
      }, 2000);
    };
    if (navigator.clipboard && navigator.clipboard.writeText)
      navigator.clipboard.writeText(String(text)).then(done, function () {
        if (src!.select) src!.select();
      });
    else if (src && src.select) {
      src.select();
      document.execCommand('copy');
      done();
    }
  });
}
