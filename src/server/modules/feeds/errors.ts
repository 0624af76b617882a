import { TRPCError } from '@trpc/server';

export const fail = (code: 'BAD_REQUEST' | 'NOT_FOUND' | 'FORBIDDEN' | 'CONFLICT', message: string) => new TRPCError({ code, message });
