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
 *
 * By SKU (no key): data-service-showcase="shw_…" with data-service-sku (or ARWidget.show with `showcase`, `sku`)
 * shows the showcase's work with that SKU: a variant's sku, else an item's external_id. All SKUs of the page,
 * those the element maps too, are asked in one request per showcase (GET /showcase/{id}/skus). An unknown SKU,
 * or one whose files are not ready, hides the element (data-ar-state="not_found", a console warning).
 * ARWidget.setSku(selector, sku) switches: another variant of the same item inside the loaded frame (a message
 * to the embed page: no reload), another item: the frame loads its page. It follows the buyer's choice by itself:
 * - Shopify: data-service-variants='{"<variant id>":"<sku>",…}' maps the `?variant=` of the address (also when
 *   the theme rewrites it with history.replaceState / pushState) and a cart form's [name="id"] on change;
 * - WooCommerce (with jQuery): found_variation (its variation.sku) on form.variations_form, and reset_data (back
 *   to the element's own data-service-sku); the form's data-product_variations SKUs are asked up front.
 * Each switch counts as a variant_select (surface widget) where the showcase has analytics on.
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
  /** The embed page in the same language, when the page said which, and of the variant asked for. */
  View.prototype.src = function (url, hash) {
    var q = [];
    if (this.asked) q.push('lang=' + encodeURIComponent(this.lang));
    if (this.sku) q.push('variant=' + encodeURIComponent(this.sku));
    return (q.length && url ? url + (url.indexOf('?') < 0 ? '?' : '&') + q.join('&') : url) + (hash || '');
  };
  View.prototype.done = function (url, hash) {
    this.state('done');
    var f = document.createElement('iframe');
    f.src = this.src(url, hash);
    f.title = this.t('viewerTitle');
    // The embed page inside reports its engagement as the widget's (docs/analytics.md), by this name.
    f.name = 'ar-widget';
    f.setAttribute('allow', 'xr-spatial-tracking; fullscreen');
    f.setAttribute('loading', 'lazy');
    this.box.innerHTML = '';
    this.box.appendChild(f);
    return f;
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

  // ---- By SKU: one lookup per showcase for every SKU asked in the same turn; answers kept for the page's life.
  var found = {},
    waiting = {},
    queue = {},
    timer = 0;
  var okSku = function (s) {
    return typeof s === 'string' && s.length > 0 && s.length <= 100;
  };
  function want(shw, sku, cb) {
    var k = shw + '\n' + sku;
    if (Object.prototype.hasOwnProperty.call(found, k)) return cb(found[k]);
    if (waiting[k]) return waiting[k].push(cb);
    waiting[k] = [cb];
    (queue[shw] = queue[shw] || []).push(sku);
    if (timer) return;
    timer = 1;
    // While the page loads, wait for all of it: its elements' SKUs go in the same request.
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', flush);
    else setTimeout(flush, 0);
  }
  function flush() {
    timer = 0;
    for (var shw in queue) for (var l = queue[shw], i = 0; i < l.length; i += 100) ask(shw, l.slice(i, i + 100));
    queue = {};
  }
  function ask(shw, l) {
    var q = l.map(function (s) {
      return 'sku=' + encodeURIComponent(s);
    });
    fetch(BASE + '/showcase/' + encodeURIComponent(shw) + '/skus?' + q.join('&'))
      .then(function (r) {
        if (!r.ok) throw new Error('HTTP ' + r.status);
        return r.json();
      })
      .then(
        function (b) {
          return b.skus || {};
        },
        function (e) {
          console.warn('ARWidget: SKU lookup in ' + shw + ' failed: ' + e.message);
        },
      )
      .then(function (m) {
        l.forEach(function (s) {
          var k = shw + '\n' + s,
            cbs = waiting[k],
            v = (m && m[s]) || null;
          if (m) found[k] = v;
          delete waiting[k];
          cbs.forEach(function (cb) {
            cb(v);
          });
        });
      });
  }

  /** Shows `sku` in a SKU element; `count`: a switch (the embed page counts a variant_select). */
  function pick(el, sku, count) {
    var st = el.__ar;
    st.sku = sku;
    var miss = function () {
      if (st.sku !== sku) return;
      st.item = null;
      // Blank, not removed: the page in it leaves as a page does (its last beacons are sent).
      if (st.frame) st.frame.src = 'about:blank';
      el.style.display = 'none';
      st.view.state('not_found');
      console.warn('ARWidget: no AR model for SKU "' + sku + '" in showcase ' + st.shw);
    };
    if (!okSku(sku)) return miss();
    want(st.shw, sku, function (m) {
      if (st.sku !== sku) return; // a later choice won
      if (!m) return miss();
      el.style.display = st.display;
      el.setAttribute('data-ar-sku', sku);
      var f = st.frame;
      if (f && st.loaded && st.item === m.item_id && /[?&]variant=/.test(m.embed_url)) {
        // Another variant of the item shown: the embed page switches itself (embed-page.ts VARIANT_SWITCH_SCRIPT).
        if (st.shown !== sku) f.contentWindow.postMessage({ type: 'ar-widget:variant', sku: sku }, f.src.split('/').slice(0, 3).join('/'));
      } else if (f) {
        // Another item: the same frame goes there (its page leaves as a page does: its last beacons are sent).
        st.loaded = false;
        f.src = st.view.src(m.embed_url, count ? '#ar-select' : '');
      } else {
        f = st.frame = st.view.done(m.embed_url, count ? '#ar-select' : '');
        f.addEventListener('load', function () {
          st.loaded = st.frame === f;
        });
      }
      st.item = m.item_id;
      st.shown = sku;
      st.view.state('done');
    });
  }

  /** The latest choice of a turn wins (WooCommerce fires reset_data and found_variation together). */
  function choose(el, sku) {
    var st = el.__ar;
    if (!st || !sku || sku === st.next || (st.next === undefined && sku === st.sku)) return;
    st.next = sku;
    setTimeout(function () {
      if (st.next !== sku) return;
      st.next = undefined;
      if (sku !== st.sku) pick(el, sku, true);
    }, 0);
  }

  var skuEls = [];
  /** JSON of an attribute; `fallback` (with a warning) when it is not JSON. */
  function parse(el, name, fallback) {
    try {
      return JSON.parse(el.getAttribute(name) || 'null') || fallback;
    } catch (e) {
      console.warn('ARWidget: ' + name + ' is not JSON: ' + e.message);
      return fallback;
    }
  }
  function mapOf(el) {
    return parse(el, 'data-service-variants', {});
  }

  /** Shopify: the variant id of the address, else the one given, mapped by each element's data-service-variants. */
  function shopify(id) {
    if (id === undefined) id = (/[?&]variant=(\d+)/.exec(location.search) || [])[1];
    skuEls.forEach(function (el) {
      var m = mapOf(el);
      if (id && Object.prototype.hasOwnProperty.call(m, id)) choose(el, String(m[id]));
    });
  }
  var hooked = false,
    wooed = false;
  function listen() {
    if (!hooked) {
      hooked = true;
      ['pushState', 'replaceState'].forEach(function (name) {
        var orig = history[name];
        history[name] = function () {
          var r = orig.apply(this, arguments);
          shopify();
          return r;
        };
      });
      window.addEventListener('popstate', function () {
        shopify();
      });
      document.addEventListener('change', function (e) {
        var t = e.target;
        if (t && t.name === 'id' && t.form) shopify(String(t.value));
      });
    }
    var $ = window.jQuery;
    // WooCommerce loads jQuery late on some themes: look again once everything is there.
    if (!$ && !wooed) window.addEventListener('load', listen);
    if (!wooed && $) {
      wooed = true;
      $(document)
        .on('found_variation', 'form.variations_form', function (e, v) {
          if (v && v.sku)
            skuEls.forEach(function (el) {
              choose(el, String(v.sku));
            });
        })
        .on('reset_data', 'form.variations_form', function () {
          skuEls.forEach(function (el) {
            choose(el, el.__ar.own);
          });
        });
    }
  }
  /** SKUs the element may switch to, asked in the same lookup as its own: its Shopify map, a WooCommerce form's variations. */
  function skusAround(el) {
    var out = [],
      m = mapOf(el),
      forms = document.querySelectorAll('form.variations_form[data-product_variations]');
    for (var id in m) out.push(String(m[id]));
    for (var i = 0; i < forms.length; i++)
      parse(forms[i], 'data-product_variations', []).forEach(function (v) {
        if (v && v.sku) out.push(String(v.sku));
      });
    return out.filter(okSku);
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
    /**
     * Shows a showcase item's embed page: `o.embedId` its `emb_…` id, `o.variantSku` a variant, `o.lang`; or by
     * SKU: `o.showcase` (shw_…) and `o.sku`.
     */
    show: function (selector, o) {
      each(selector, function (el) {
        if (!o.showcase) return new View(el, o).done(BASE + '/embed/' + encodeURIComponent(o.embedId));
        var view = new View(el, { lang: o.lang });
        view.sku = '';
        view.state('loading');
        var own = String(o.sku || ''),
          st = (el.__ar = { view: view, shw: String(o.showcase), own: own, display: el.style.display });
        skuEls.push(el);
        listen();
        skusAround(el).forEach(function (s) {
          want(st.shw, s, function () {});
        });
        // Shopify: a product page opened with ?variant= shows that variant, not the block's first one.
        var id = (/[?&]variant=(\d+)/.exec(location.search) || [])[1],
          m = mapOf(el);
        pick(el, id && Object.prototype.hasOwnProperty.call(m, id) ? String(m[id]) : own, false);
      });
    },
    /** Switches SKU elements to another SKU (another variant inside the loaded frame, another item: the frame loads its page). */
    setSku: function (selector, sku) {
      each(selector, function (el) {
        if (el.__ar && String(sku) !== el.__ar.sku) pick(el, String(sku), true);
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
    each('[data-service-image],[data-service-job],[data-service-embed],[data-service-showcase]', function (el) {
      if (el.getAttribute('data-ar-state')) return;
      if (el.hasAttribute('data-service-showcase'))
        return ARWidget.show(el, { showcase: el.getAttribute('data-service-showcase'), sku: el.getAttribute('data-service-sku') });
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
