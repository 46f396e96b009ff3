export const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** Thrown by handlers; turned into a `{title, status, detail}` JSON response. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export function problemBody(status: number, detail: string) {
  return { title: TITLES[status] ?? 'Error', status, detail };
}

export function problem(status: number, detail: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(problemBody(status, detail)), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

export const bad = (detail: string) => new ApiError(400, detail);
export const notFound = (detail: string) => new ApiError(404, detail);
export const unauthorized = (detail: string) => new ApiError(401, detail);
export const forbidden = (detail: string) => new ApiError(403, detail);
