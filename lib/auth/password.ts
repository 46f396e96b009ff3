import bcrypt from 'bcryptjs';

const COST = 11;
// Compared against when the user does not exist, so that unknown and known e-mails take as long.
const DUMMY_HASH = '$2b$11$C6UzMDM.H6dfI/f/IKxGhuN7y8RgHqfq4ql2lNbDWI8cC6W1r2Ax6';

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, COST);
}

export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash) {
    await bcrypt.compare(password, DUMMY_HASH);
    return false;
  }
  return bcrypt.compare(password, hash);
}

/** Rules for passwords set in Verdict (not for demo ones given by configuration). */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 128;
