import type { RequestHandler } from 'express';
import { accessRefusal } from '../../../shared/domain/membership';
import { domainSchema } from '../../../shared/schemas/company';
import type { AppDeps } from '../../deps';
import { readImageUpload, redirectToImage, replaceImage, requireUser } from '../../uploads/images';

/**
 * PUT /uploads/company/:domain/image — the company image (spec: it must be an image file).
 * The same access rule as adminProcedure: an active admin of that company.
 */
export function uploadCompanyImage(deps: AppDeps): RequestHandler {
  return async (req, res) => {
    const auth = await requireUser(deps, req, res);
    if (!auth) return;
    const domain = domainSchema.safeParse(req.params.domain);
    const company = domain.success ? await deps.db.company.findUnique({ where: { domain: domain.data } }) : null;
    if (!company) return void res.status(404).json({ error: 'Domain not found' });
    const member = await deps.db.member.findUnique({ where: { companyId_userId: { companyId: company.id, userId: auth.user.id } } });
    const refusal = accessRefusal(member);
    if (refusal) return void res.status(403).json({ error: refusal.message });
    if (!member!.isAdmin) return void res.status(403).json({ error: 'Only administrators can do this' });

    const image = await readImageUpload(req, res);
    if (!image) return;
    const stored = await replaceImage(deps, `companies/${company.domain}/image`, image, company.imageKey);
    await deps.db.company.update({ where: { id: company.id }, data: { imageKey: stored.key } });
    await stored.dropOld();
    res.json({ ok: true });
  };
}

/** GET /companies/:domain/image — public: the image shows on the company's public page. */
export function serveCompanyImage(deps: AppDeps): RequestHandler {
  return async (req, res) => {
    const domain = domainSchema.safeParse(req.params.domain);
    const company = domain.success ? await deps.db.company.findUnique({ where: { domain: domain.data }, select: { imageKey: true } }) : null;
    await redirectToImage(deps, res, company?.imageKey);
  };
}
