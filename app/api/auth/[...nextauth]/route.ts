import NextAuth from 'next-auth';
import { authOptions } from '@/lib/auth/options';

// Public by design: this is the sign-in and sign-out endpoint itself.
const handler = NextAuth(authOptions);
export { handler as GET, handler as POST };
