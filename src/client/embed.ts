/**
 * The embeddable widget's session. Inside another site's iframe the browser withholds our
 * SameSite=Lax cookie, so the widget page keeps its own anonymous session token (in storage the
 * browser partitions by the embedding site) and sends it as a Bearer header and in the socket
 * handshake. Everywhere else this is inert and the cookie does the work.
 */
const KEY = 'atende-widget-token';

const WIDGET_PATH = /^\/[^/]+\/widget\/?$/;
let embedded = false;

const framed = () => {
  try {
    return window.self !== window.top;
  } catch {
    return true;
  }
};

/**
 * The widget page, and, once this document was one inside a frame, every page the visitor moves to
 * in it (a conversation at /{emp}/chat/…, then back): leaving the widget's path must not drop them
 * to the cookie the framing site's browser withholds. A top-level tab goes back to its cookie.
 */
export function isWidgetPage() {
  if (WIDGET_PATH.test(window.location.pathname)) {
    embedded = true;
    return true;
  }
  return embedded && framed();
}

let token: string | null | undefined;

export function widgetToken(): string | null {
  if (!isWidgetPage()) return null;
  if (token === undefined) {
    try {
      token = localStorage.getItem(KEY);
    } catch {
      // Storage refused (a strict privacy setting): the session lasts as long as the page.
      token = null;
    }
  }
  return token;
}

export function setWidgetToken(value: string | null) {
  token = value;
  try {
    if (value) localStorage.setItem(KEY, value);
    else localStorage.removeItem(KEY);
  } catch {
    // See widgetToken.
  }
}
