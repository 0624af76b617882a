/**
 * The providers' webhooks: /webhooks/whatsapp/<key> (GET handshake, POST signed events) and
 * /webhooks/telegram/<key> (POST with the secret token). The raw body is kept: the WhatsApp
 * signature is over the exact bytes.
 */
import express, { type Request, type Response } from 'express';
import type { AppDeps } from '../../deps';
import { CHANNELS, type ChannelKind } from './channel';
import { handleWebhook } from './inbound';

export function channelWebhooks(deps: AppDeps) {
  const router = express.Router();
  router.use(express.raw({ type: () => true, limit: '2mb' }));
  router.all('/:channel/:key', async (req: Request, res: Response) => {
    const channel = String(req.params.channel) as ChannelKind;
    const key = String(req.params.key);
    if (!CHANNELS.includes(channel) || !/^[\w-]{10,64}$/.test(key) || !['GET', 'POST'].includes(req.method)) {
      res.status(404).type('text/plain').send('Not found');
      return;
    }
    try {
      const answer = await handleWebhook(deps, channel, key, {
        method: req.method,
        query: req.query as Record<string, unknown>,
        headers: req.headers,
        rawBody: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
      });
      res.status(answer.status).type('text/plain').send(answer.body ?? '');
    } catch (err) {
      // Not applied (the inbound record was forgotten): the provider delivers it again later.
      req.log.error({ err, channel }, 'webhook failed');
      res.status(500).type('text/plain').send('Try again later');
    }
  });
  return router;
}
