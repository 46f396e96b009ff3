import { z } from 'zod';
import { answeringOutages, problem } from '@/lib/http/problem';
import { redeemPasswordLink } from '@/lib/auth/password-links';

/**
 * Public: a one-time link's holder chooses their password. The 256-bit token is the credential
 * (only its hash is stored); a used, expired or unknown one gets 410, a refused password 400 with
 * the sentence to show.
 */
const bodySchema = z.object({
  token: z.string().min(20).max(200),
  password: z.string().max(1000),
});

export const POST = answeringOutages(async (req: Request) => {
  const raw = await req.json().catch(() => null);
  const parsed = bodySchema.safeParse(raw);
  if (!parsed.success) return problem(400, 'Bad Request', 'Send the token and the password as JSON.');
  const r = await redeemPasswordLink(parsed.data.token, parsed.data.password);
  if (!r.ok) return problem(r.status, r.status === 410 ? 'Gone' : 'Bad Request', r.error);
  return Response.json({ email: r.email });
});
