import { Prisma } from './client';

/**
 * A unique violation raised by a raw statement ($queryRaw), re-raised as the ORM raises it (P2002),
 * so callers that treat "already there" as a retry keep one check whichever way the row was written.
 * Anything else is returned unchanged.
 */
export function asOrmUniqueViolation(err: unknown): unknown {
  const e = err as { code?: string; meta?: { driverAdapterError?: { cause?: { kind?: string; originalCode?: string; constraint?: unknown } } }; message?: string };
  // pg's own error (hotQuery): the SQLSTATE is its code, the constraint its own field.
  const pgError = err instanceof Error && (err as { code?: unknown }).code === '23505' ? (err as { constraint?: string }) : undefined;
  const cause = e?.code === 'P2010' ? e.meta?.driverAdapterError?.cause : pgError ? { kind: 'UniqueConstraintViolation', constraint: pgError.constraint } : undefined;
  if (!cause || (cause.kind !== 'UniqueConstraintViolation' && cause.originalCode !== '23505')) return err;
  return new Prisma.PrismaClientKnownRequestError(e.message ?? 'Unique constraint failed', {
    code: 'P2002',
    clientVersion: Prisma.prismaVersion.client,
    meta: { constraint: cause.constraint },
  });
}
