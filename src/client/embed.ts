/**
 * The embeddable widget's session. Inside another site's iframe the browser withholds our
 * SameSite=Lax cookie, so the widget page keeps its own anonymous session token (in storage the
 * browser partitions by the embedding site) and sends it as a Bearer header and in the socket
 * handshake. Everywhere else this is inert and the cookie does the work.
 */
const KEY = 'atende-widget-token';

export const isWidgetPage = () => /^\/[^/]+\/widget\/?$/.test(window.location.pathname);

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
