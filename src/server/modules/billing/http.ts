import express, { type RequestHandler } from 'express';
import type { AppDeps } from '../../deps';
import { handleNotification } from './payments';
import { ForgedNotification } from './providers/types';

/**
 * POST /webhooks/payments/:provider — the provider's notifications. The raw body is kept for the
 * signature check. A forged or unsigned one is refused (400, nothing written); when the provider
 * cannot be asked about the payment we answer 503 so the provider delivers it again later.
 */
export function paymentWebhook(deps: Pick<AppDeps, 'db' | 'config' | 'logger' | 'clock'>): RequestHandler[] {
  return [
    express.raw({ type: '*/*', limit: '1mb' }),
    async (req, res) => {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      try {
        const result = await handleNotification(deps, String(req.params.provider), body, req.headers);
        if (!result.handled && result.reason === 'not configured') return void res.status(404).json({ error: 'Payments are not set up' });
        res.json({ received: true });
      } catch (err) {
        if (err instanceof ForgedNotification) {
          deps.logger.warn({ provider: req.params.provider, reason: err.message }, 'payment notification refused: bad signature');
          return void res.status(400).json({ error: 'Invalid signature' });
        }
        deps.logger.error({ err, provider: req.params.provider }, 'payment notification failed');
        res.status(503).json({ error: 'Try again later' });
      }
    },
  ];
}
