/* AR widget: include once per page, then use data-service-* attributes or window.ARWidget. No dependencies.
 *
 * Language of its visible strings (progress, errors, the viewer's title) and of the embed page it shows:
 * the element's data-service-lang attribute (or the `lang` option of mount/embed), else the `lang` of the
 * nearest element that has one (normally <html lang>), else English. Only the primary subtag counts
 * ("de-AT" is "de"); an unsupported language reads English. The embed page gets the same ?lang= when one
 * was found this way; without one it speaks its own default (a showcase picture: its showcase's language).
 *
 * A showcase item: data-service-embed (or ARWidget.show with `embedId`) names its public embed id, the `emb_…`
 * of its embed_url (public: no key). One sold in several sizes and frames: data-service-variant-sku (or the
 * `variantSku` option) shows that variant's files and AR links (the embed page's ?variant=); without it, the
 * default.
 */
(function () {
  'use strict';
  if (window.ARWidget) return;

  var script = document.currentScript;
  var BASE = script && script.src ? script.src.replace(/\/api\/v1\/widget\.js(\?.*)?$/, '') : '';
  var POLL_MS = 1000;

  // The widget's messages per language. The service writes every locale's catalogue (libs/catalogue,
  // widget.*) between these markers when it serves this file; as stored here the table holds English only.
  var MESSAGES = /*messages*/ {
    en: {
      submitting: 'Submitting',
      waiting: 'Waiting',
      converting: 'Converting',
      error: 'Could not create the AR model: {message}',
      conversionFailed: 'conversion failed',
      viewerTitle: 'AR viewer',
    },
  }; /*end messages*/

  /** The language tag an element asks for (see the header), or '' for none. */
  function askedLang(el, o) {
    var holder = el.closest ? el.closest('[lang]') : null;
    return String((o && o.lang) || el.getAttribute('data-service-lang') || (holder && holder.getAttribute('lang')) || '');
  }
  /** A supported language for a tag: its primary subtag, lower case; English for anything else. */
  function langOf(tag) {
    var primary = String(tag).toLowerCase().split(/[-_]/)[0];
    return Object.prototype.hasOwnProperty.call(MESSAGES, primary) ? primary : 'en';
  }
  function msg(lang, key, params) {
    var s = (MESSAGES[lang] && MESSAGES[lang][key]) || MESSAGES.en[key] || key;
    return s.replace(/\{([A-Za-z0-9_]+)\}/g, function (whole, name) {
      return params && Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole;
    });
  }

  var CSS =
    ':host{display:block;position:relative;overflow:hidden}' +
    '.box{position:absolute;inset:0;display:flex;align-items:center;justify-content:center;font:14px/1.4 system-ui,-apple-system,sans-serif;color:#333;background:#f4f4f6;border-radius:12px}' +
    '.progress{width:70%;text-align:center}.bar{height:6px;border-radius:3px;background:#dde;overflow:hidden;margin-top:8px}' +
    '.fill{height:100%;width:0;background:#0a66ff;transition:width .3s}' +
    '.error{color:#a00;padding:16px;text-align:center}' +
    'iframe{position:absolute;inset:0;width:100%;height:100%;border:0;border-radius:12px}';

  function request(method, path, key, body) {
    var headers = { 'X-API-Key': key };
    if (body) headers['Content-Type'] = 'application/json';
    return fetch(BASE + path, { method: method, headers: headers, body: body ? JSON.stringify(body) : undefined }).then(function (r) {
      return r
        .json()
        .catch(function () {
          return {};
        })
        .then(function (b) {
          if (!r.ok) throw new Error((b && b.error && b.error.message) || 'HTTP ' + r.status);
          return b;
        });
    });
  }

  function View(el, o) {
    var root = el.shadowRoot || el.attachShadow({ mode: 'open' });
    root.innerHTML = '<style>' + CSS + '</style><div class="box" part="box"></div>';
    if (!el.style.height && el.getBoundingClientRect().height < 50) el.style.minHeight = '300px';
    this.el = el;
    this.box = root.querySelector('.box');
    this.asked = askedLang(el, o);
    this.lang = langOf(this.asked);
    this.sku = String((o && o.variantSku) || el.getAttribute('data-service-variant-sku') || '');
  }
  View.prototype.t = function (key, params) {
    return msg(this.lang, key, params);
  };
  View.prototype.state = function (s) {
    this.el.setAttribute('data-ar-state', s);
  };
  View.prototype.progress = function (p, label) {
    this.state('converting');
    this.box.innerHTML =
      '<div class="progress" role="progressbar" aria-valuemin="0" aria-valuemax="100" aria-valuenow="' +
      Math.round(p) +
      '"><span class="label"></span><div class="bar"><div class="fill" style="width:' +
      Math.max(2, p) +
      '%"></div></div></div>';
    this.box.querySelector('.label').textContent = label + ' ' + Math.round(p) + '%';
  };
  View.prototype.error = function (message) {
    this.state('error');
    this.box.innerHTML = '<div class="error" role="alert"></div>';
    this.box.firstChild.textContent = this.t('error', { message: message });
  };
  View.prototype.done = function (url) {
    this.state('done');
    var f = document.createElement('iframe');
    // The embed page in the same language, when the page said which, and of the variant asked for.
    var q = [];
    if (this.asked) q.push('lang=' + encodeURIComponent(this.lang));
    if (this.sku) q.push('variant=' + encodeURIComponent(this.sku));
    f.src = q.length && url ? url + (url.indexOf('?') < 0 ? '?' : '&') + q.join('&') : url;
    f.title = this.t('viewerTitle');
    // The embed page inside reports its engagement as the widget's (docs/analytics.md), by this name.
    f.name = 'ar-widget';
    f.setAttribute('allow', 'xr-spatial-tracking; fullscreen');
    f.setAttribute('loading', 'lazy');
    this.box.innerHTML = '';
    this.box.appendChild(f);
  };

  function follow(view, jobId, key, variant) {
    view.progress(0, view.t('converting'));
    function tick() {
      request('GET', '/api/v1/status/' + encodeURIComponent(jobId), key)
        .then(function (s) {
          if (s.status === 'completed') {
            return request('GET', '/api/v1/result/' + encodeURIComponent(jobId), key).then(function (r) {
              view.done(variant === 'static' ? r.embed_url_static : r.embed_url);
            });
          }
          if (s.status === 'failed') return view.error((s.error && s.error.message) || view.t('conversionFailed'));
          view.progress(s.progress || 0, view.t(s.status === 'queued' ? 'waiting' : 'converting'));
          setTimeout(tick, POLL_MS);
        })
        .catch(function (e) {
          view.error(e.message);
        });
    }
    tick();
  }

  function each(selector, fn) {
    var nodes = typeof selector === 'string' ? document.querySelectorAll(selector) : selector instanceof Element ? [selector] : selector;
    for (var i = 0; i < nodes.length; i++) fn(nodes[i]);
  }

  var ARWidget = {
    version: '1',
    /**
     * Attaches to an existing v1 job. `o.lang`: the language (else data-service-lang, else the page's);
     * `o.variantSku`: a showcase item's variant (else data-service-variant-sku, else its default).
     */
    mount: function (selector, o) {
      each(selector, function (el) {
        follow(new View(el, o), o.jobId, o.apiKey, o.variant || 'interactive');
      });
    },
    /** Shows a showcase item's embed page: `o.embedId` its `emb_…` id, `o.variantSku` a variant, `o.lang`. */
    show: function (selector, o) {
      each(selector, function (el) {
        new View(el, o).done(BASE + '/embed/' + encodeURIComponent(o.embedId));
      });
    },
    /** Submits an image, then renders it. */
    embed: function (selector, o) {
      each(selector, function (el) {
        var view = new View(el, o);
        view.progress(0, view.t('submitting'));
        request('POST', '/api/v1/convert', o.apiKey, { image_url: o.imageUrl })
          .then(function (j) {
            el.setAttribute('data-service-job-id', j.job_id);
            follow(view, j.job_id, o.apiKey, o.variant || 'interactive');
          })
          .catch(function (e) {
            view.error(e.message);
          });
      });
    },
  };
  window.ARWidget = ARWidget;

  function auto() {
    each('[data-service-image],[data-service-job],[data-service-embed]', function (el) {
      if (el.getAttribute('data-ar-state')) return;
      if (el.hasAttribute('data-service-embed')) return ARWidget.show(el, { embedId: el.getAttribute('data-service-embed') });
      var o = { apiKey: el.getAttribute('data-service-key') || '', variant: el.getAttribute('data-service-variant') || 'interactive' };
      if (el.hasAttribute('data-service-job'))
        ARWidget.mount(el, { jobId: el.getAttribute('data-service-job'), apiKey: o.apiKey, variant: o.variant });
      else ARWidget.embed(el, { imageUrl: el.getAttribute('data-service-image'), apiKey: o.apiKey, variant: o.variant });
    });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', auto);
  else auto();
})();
