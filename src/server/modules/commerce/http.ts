/**
 * The PDFs of a budget and a sale (GET /commerce/budget/:budgetId/pdf?tz=, /commerce/sale/:saleId/pdf?tz=),
 * for whoever may read them (the service's rule: the company's members, the conversation's customer).
 */
import type { RequestHandler } from 'express';
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import type { AppDeps } from '../../deps';
import { refuse } from '../../uploads/attachments';
import { requireUser } from '../../uploads/images';
import { budgetPdf, pdfFileName, salePdf } from './pdf';
import { getBudget, getSale } from './service';

const uuid = z.uuid();
const tz = z.string().regex(/^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+){0,2}$/).max(64).catch('America/Sao_Paulo');

export function downloadCommercePdf(deps: AppDeps, kind: 'budget' | 'sale'): RequestHandler {
  return async (req, res) => {
    try {
      const auth = await requireUser(deps, req, res);
      if (!auth) return;
      const id = uuid.safeParse(req.params.id);
      if (!id.success) return refuse(res, 404, 'Não encontrado', 'NOT_FOUND');
      const timeZone = tz.parse(req.query.tz ?? 'America/Sao_Paulo');
      const pdf = kind === 'budget' ? await budgetPdf(await getBudget(deps, auth.user, id.data), timeZone) : await salePdf(await getSale(deps, auth.user, id.data), timeZone);
      res.setHeader('Content-Type', 'application/pdf');
      res.setHeader('Content-Disposition', `attachment; filename="${pdfFileName(kind === 'budget' ? 'orcamento' : 'venda', id.data)}"`);
      res.setHeader('Cache-Control', 'private, no-store');
      res.end(pdf);
    } catch (err) {
      if (err instanceof TRPCError) {
        const status = { NOT_FOUND: 404, FORBIDDEN: 403, BAD_REQUEST: 400, CONFLICT: 409 }[err.code as string];
        if (status) return refuse(res, status, err.message, err.code);
      }
      req.log.error({ err }, 'commerce PDF failed');
      refuse(res, 500, 'Something went wrong; try again', 'internal');
    }
  };
}
