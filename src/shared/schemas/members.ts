import { z } from 'zod';
import { emailSchema } from './identity';

export const memberIdInput = z.object({ memberId: z.uuid() });
export const setMemberProfileInput = z.object({ memberId: z.uuid(), profileCode: z.string().trim().min(1).max(10) });
export const setMemberGroupsInput = z.object({ memberId: z.uuid(), groupIds: z.array(z.uuid()).max(200) });
export const inviteByEmailInput = z.object({ email: emailSchema });
export const inviteIdInput = z.object({ inviteId: z.uuid() });
