import { apiDocument } from '@/lib/api/openapi';

/** The read API's OpenAPI document: public, so integrators can point their tools at it. */
export function GET() {
  return Response.json(apiDocument(), { headers: { 'Cache-Control': 'public, max-age=300' } });
}
