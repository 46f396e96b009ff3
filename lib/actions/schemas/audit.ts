import { z } from 'zod';

/** "Verify now" takes nothing: the whole chain is verified, as the hourly job does. */
export const verifyAuditNowSchema = z.object({});

/** The queued verification whose state the audit page polls. */
export const auditVerifyProgressSchema = z.object({ jobId: z.string().uuid() });
