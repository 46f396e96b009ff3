import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Verdict', template: '%s · Verdict' },
  description: 'Review console for identity-verification decisions',
  robots: { index: false, follow: false },
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // The theme lives in a cookie so the server renders the right colours: no flash, no inline script.
  const theme = (await cookies()).get('theme')?.value === 'dark' ? 'dark' : 'light';
  return (
    <html lang="en" className={theme}>
      <body className="min-h-screen">{children}</body>
    </html>
  );
}
