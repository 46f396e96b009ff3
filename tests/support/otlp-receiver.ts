/**
 * A real OTLP/HTTP trace receiver on loopback, for the tracing tests: it accepts the JSON
 * encoding that @opentelemetry/exporter-trace-otlp-http sends to `/v1/traces` and keeps every
 * span with its trace id, parent and attributes. Ids arrive as hex in the JavaScript exporter's
 * JSON; base64 (the protobuf JSON mapping other exporters use) is decoded too.
 */
import http from 'node:http';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  service: string;
  attributes: Record<string, unknown>;
  links: Array<{ traceId: string; spanId: string }>;
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  requests: number;
  close(): Promise<void>;
}

const hexId = (v: unknown) =>
  typeof v !== 'string' || v === ''
    ? ''
    : /^[0-9a-f]+$/i.test(v) && (v.length === 32 || v.length === 16)
      ? v.toLowerCase()
      : Buffer.from(v, 'base64').toString('hex');

type AnyValue = { stringValue?: string; intValue?: number | string; boolValue?: boolean; doubleValue?: number };
const valueOf = (v: AnyValue | undefined) => v?.stringValue ?? v?.intValue ?? v?.boolValue ?? v?.doubleValue;
const attributesOf = (list: Array<{ key: string; value: AnyValue }> = []) =>
  Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const r: OtlpReceiver = { url: '', spans: [], requests: 0, close: async () => undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !/json/.test(req.headers['content-type'] ?? '')) {
        res.writeHead(415).end();
        return;
      }
      r.requests++;
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        resourceSpans?: Array<{
          resource?: { attributes?: Array<{ key: string; value: AnyValue }> };
          scopeSpans?: Array<{ spans?: Array<Record<string, unknown>> }>;
        }>;
      };
      for (const rs of body.resourceSpans ?? []) {
        const service = String(attributesOf(rs.resource?.attributes)['service.name'] ?? '');
        for (const ss of rs.scopeSpans ?? [])
          for (const s of ss.spans ?? [])
            r.spans.push({
              traceId: hexId(s.traceId),
              spanId: hexId(s.spanId),
              parentSpanId: hexId(s.parentSpanId),
              name: String(s.name),
              service,
              attributes: attributesOf(s.attributes as Array<{ key: string; value: AnyValue }>),
              links: ((s.links as Array<{ traceId: string; spanId: string }>) ?? []).map((l) => ({
                traceId: hexId(l.traceId),
                spanId: hexId(l.spanId),
              })),
            });
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  r.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  r.close = () => new Promise((resolve) => server.close(() => resolve()));
  return r;
}
