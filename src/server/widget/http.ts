import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Request, Response } from 'express';
import { widgetSettingsOf } from '../../shared/domain/widget';
import type { Db } from '../db/client';
import { ROOT } from '../paths';

/** The messenger page the widget's iframe opens: the only page other sites may frame. */
export const WIDGET_PAGE = /^\/[^/]+\/widget\/?$/;

/**
 * Framing policy of the app's HTML. The widget page may sit in any site's iframe (the companies
 * embedding it are not known in advance); every other page only in our own, so no other site can
 * overlay it to trick a signed-in member into clicks.
 */
export function frameHeaders(pathname: string, res: Response) {
  if (WIDGET_PAGE.test(pathname)) {
    res.setHeader('Content-Security-Policy', 'frame-ancestors *');
  } else {
    res.setHeader('Content-Security-Policy', "frame-ancestors 'self'");
    res.setHeader('X-Frame-Options', 'SAMEORIGIN');
  }
}

const scriptFile = path.join(ROOT, 'src/server/widget/script.js');

/**
 * GET /widget.js: the plain script companies put on their sites. Read once; cached an hour by
 * browsers and proxies (its address cannot carry a version: it is pasted into other sites), and
 * revalidated cheaply by its ETag after that.
 */
export function serveWidgetScript() {
  let body: string | undefined;
  let etag = '';
  return (req: Request, res: Response) => {
    if (body === undefined) {
      body = fs.readFileSync(scriptFile, 'utf8');
      etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    }
    res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.setHeader('ETag', etag);
    // Sites that isolate themselves (COEP) may still load it.
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (req.headers['if-none-match'] === etag) return void res.status(304).end();
    res.send(body);
  };
}

/**
 * GET /widget-config/:domain: the company's widget settings (colour, greeting, label, position)
 * the script reads before drawing its launcher, so the tag on a site needs only data-domain.
 * Public (the launcher shows them to anyone anyway) and readable from any origin; a few minutes
 * of caching keeps busy sites from asking on every page view.
 */
export function serveWidgetConfig(db: Db) {
  return async (req: Request, res: Response) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    const company = await db.company.findUnique({ where: { domain: String(req.params.domain) }, select: { widget: true } });
    if (!company) return void res.status(404).json({ error: 'Not found' });
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json(widgetSettingsOf(company.widget));
  };
}
