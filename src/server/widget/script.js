/*
 * Atende embeddable widget. A company adds one tag to its site:
 *   <script src="https://OUR_HOST/widget.js" data-domain="acme" async></script>
 * The colour, greeting, launcher label and position come from the company's settings (read from
 * /widget-config/{domain} first); data-color="#0b7a53", data-greeting="Hi! Questions?",
 * data-label="Chat with us", data-position="left" override them on one site. It draws a launcher in a shadow root (the site's CSS cannot reach it) and
 * opens the company's messenger in an iframe on our origin.
 */
(function () {
  'use strict';
  var script = document.currentScript;
  if (!script || window.__atendeWidget) return;
  window.__atendeWidget = true;
  var origin = new URL(script.src).origin;
  var domain = (script.getAttribute('data-domain') || '').toLowerCase();
  if (!/^[a-z0-9]{1,64}$/.test(domain)) {
    console.warn('Atende widget: data-domain is missing or is not a company domain');
    return;
  }
  // The company's settings, then the tag's attributes over them. Drawn with the defaults when the
  // settings cannot be read: a site should still get its chat button.
  function attr(name) { return script.getAttribute('data-' + name); }
  var done = false;
  function start(conf) {
    if (done) return;
    done = true;
    conf = conf || {};
    var color = attr('color') || conf.color || '';
    if (!/^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(color)) color = '#1f5fbf';
    var greeting = (attr('greeting') || conf.greeting || '').slice(0, 200);
    var left = (attr('position') || conf.position) === 'left';
    draw(color, greeting, left, attr('label') || conf.label || '');
  }
  try {
    fetch(origin + '/widget-config/' + domain, { credentials: 'omit' })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(start, function () { start(null); });
  } catch (e) {
    start(null);
  }

  function draw(color, greeting, left, givenLabel) {
    // The launcher's own words, in the visitor's language (the messenger inside is translated by the app).
    var WORDS = {
      en: ['Chat with us', 'Close chat', 'Dismiss'],
      pt: ['Fale conosco', 'Fechar conversa', 'Dispensar'],
      es: ['Habla con nosotros', 'Cerrar chat', 'Descartar'],
      it: ['Scrivici', 'Chiudi chat', 'Ignora'],
      de: ['Schreiben Sie uns', 'Chat schließen', 'Ausblenden'],
    };
    var words = WORDS[(navigator.language || 'en').slice(0, 2).toLowerCase()] || WORDS.en;
    var label = (givenLabel || words[0]).slice(0, 60);

    var host = document.createElement('div');
    host.setAttribute('data-atende-widget', domain);
    var root = host.attachShadow({ mode: 'open' });
    var side = left ? 'left' : 'right';
    var style = document.createElement('style');
    style.textContent =
      ':host{all:initial}' +
      '.atw{position:fixed;bottom:20px;' + side + ':20px;z-index:2147483000;font:15px/1.4 system-ui,sans-serif;display:flex;flex-direction:column;align-items:' + (left ? 'flex-start' : 'flex-end') + ';gap:12px}' +
      '.launcher{width:60px;height:60px;border-radius:50%;border:0;cursor:pointer;background:' + color + ';color:#fff;box-shadow:0 4px 16px rgba(0,0,0,.25);display:grid;place-items:center}' +
      '.launcher:focus-visible,.close:focus-visible,.dismiss:focus-visible{outline:3px solid #111;outline-offset:2px}' +
      '.greeting{max-width:260px;background:#fff;color:#1a1a1a;border-radius:12px;padding:10px 32px 10px 14px;box-shadow:0 4px 16px rgba(0,0,0,.18);position:relative}' +
      '.dismiss{position:absolute;top:4px;right:4px;border:0;background:none;cursor:pointer;font-size:16px;color:#555;width:24px;height:24px}' +
      '.panel{width:380px;height:min(620px,calc(100vh - 110px));background:#fff;border-radius:14px;overflow:hidden;box-shadow:0 8px 32px rgba(0,0,0,.3);display:flex;flex-direction:column}' +
      '.bar{background:' + color + ';color:#fff;display:flex;align-items:center;justify-content:space-between;padding:6px 8px 6px 14px;font-weight:600}' +
      '.close{border:0;background:none;color:#fff;cursor:pointer;width:36px;height:36px;border-radius:8px;font-size:22px;line-height:1}' +
      'iframe{border:0;flex:1;width:100%}' +
      '[hidden]{display:none!important}' +
      '@media (max-width:480px){.panel{position:fixed;inset:0;width:100vw;height:100%;border-radius:0}}';
    var wrap = document.createElement('div');
    wrap.className = 'atw';
    var panel = document.createElement('div');
    panel.className = 'panel';
    panel.hidden = true;
    panel.setAttribute('role', 'dialog');
    panel.setAttribute('aria-label', label);
    var bar = document.createElement('div');
    bar.className = 'bar';
    var title = document.createElement('span');
    title.textContent = label;
    var close = document.createElement('button');
    close.type = 'button';
    close.className = 'close';
    close.setAttribute('aria-label', words[1]);
    close.textContent = '\u00d7';
    bar.appendChild(title);
    bar.appendChild(close);
    panel.appendChild(bar);

    var teaser = null;
    if (greeting) {
      teaser = document.createElement('div');
      teaser.className = 'greeting';
      teaser.setAttribute('role', 'status');
      var text = document.createElement('span');
      text.textContent = greeting;
      var dismiss = document.createElement('button');
      dismiss.type = 'button';
      dismiss.className = 'dismiss';
      dismiss.setAttribute('aria-label', words[2]);
      dismiss.textContent = '\u00d7';
      dismiss.onclick = function () { teaser.hidden = true; };
      teaser.appendChild(text);
      teaser.appendChild(dismiss);
    }

    var launcher = document.createElement('button');
    launcher.type = 'button';
    launcher.className = 'launcher';
    launcher.setAttribute('aria-label', label);
    launcher.setAttribute('aria-expanded', 'false');
    launcher.innerHTML =
      '<svg width="28" height="28" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z"/></svg>';

    var frame = null;
    function open() {
      if (!frame) {
        // Created on first open: a page that never opens the chat loads nothing of ours but this file.
        frame = document.createElement('iframe');
        var q = '?color=' + encodeURIComponent(color) + (greeting ? '&greeting=' + encodeURIComponent(greeting) : '');
        frame.src = origin + '/' + domain + '/widget' + q;
        frame.title = label;
        frame.setAttribute('allow', 'autoplay');
        panel.appendChild(frame);
      }
      panel.hidden = false;
      if (teaser) teaser.hidden = true;
      launcher.setAttribute('aria-expanded', 'true');
      frame.focus();
    }
    function shut() {
      panel.hidden = true;
      launcher.setAttribute('aria-expanded', 'false');
      launcher.focus();
    }
    launcher.onclick = function () { panel.hidden ? open() : shut(); };
    close.onclick = shut;
    panel.addEventListener('keydown', function (e) { if (e.key === 'Escape') shut(); });
    window.addEventListener('message', function (e) {
      if (e.origin === origin && e.data === 'atende-widget:close') shut();
    });

    wrap.appendChild(panel);
    if (teaser) wrap.appendChild(teaser);
    wrap.appendChild(launcher);
    root.appendChild(style);
    root.appendChild(wrap);
    (document.body || document.documentElement).appendChild(host);
  }
})();
