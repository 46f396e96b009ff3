/** Size limits of requests, and what test tools may show of a URL. */
export const JSON_LIMIT = 1024 * 1024;

/** A URL with the values of its query parameters and any user info replaced (secrets travel there). */
export function redactUrl(u: string): string {
  try {
    const url = new URL(u);
    for (const k of [...url.searchParams.keys()]) url.searchParams.set(k, 'redacted');
    if (url.username || url.password) {
      url.username = 'redacted';
      url.password = '';
    }
    return url.toString();
  } catch {
    return 'redacted';
  }
}
export const MULTIPART_SLACK = 1024 * 1024;
export const HARD_CAP = 64 * 1024 * 1024;
