// Two journeys the demo holds besides the generated ones: one through the web capture page and
// one through the SDK path, each driven over HTTP against the simulator's own address exactly as
// a browser and an app would, so the console shows executions that came in those ways (their
// captureClient says web and sdk) and a new user can see what such a journey looks like.
import { imageFor } from './images';

const REQUEST = (reference: string) => ({
  customerInternalReference: reference,
  userReference: `demo-${reference}`,
  reportingCriteria: 'demo-capture-clients',
  workflowDefinition: {
    key: '10013',
    credentials: [
      { category: 'ID', country: { predefinedType: 'DEFINED', values: ['NLD'] }, type: { values: ['ID_CARD'] } },
      { category: 'SELFIE' },
    ],
  },
});

const picture = (kind: 'document-front' | 'document-back' | 'face', variant: number) => {
  const { bytes, contentType } = imageFor(kind, variant);
  return new Blob([new Uint8Array(bytes)], { type: contentType });
};

async function ok(res: Response, what: string): Promise<any> {
  if (res.status >= 400) throw new Error(`demo capture: ${what} answered ${res.status}: ${await res.text()}`);
  return res.headers.get('content-type')?.includes('json') ? res.json() : null;
}

/** Runs one web and one SDK journey against the simulator at `url`; returns their execution ids. */
export async function runDemoCaptures(url: string, clientId: string, clientSecret: string): Promise<string[]> {
  const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
  const { access_token } = await ok(
    await fetch(`${url}/oauth2/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    }),
    'token',
  );
  const create = async (reference: string) =>
    ok(
      await fetch(`${url}/api/v1/accounts`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${access_token}`,
          'content-type': 'application/json',
          'user-agent': 'Verdict demo/1.0',
        },
        body: JSON.stringify(REQUEST(reference)),
      }),
      'account create',
    );
  const ids = (acc: any) => {
    const creds = acc.workflowExecution.credentials as Array<{ id: string; category: string }>;
    return { id: creds.find((c) => c.category === 'ID')!.id, selfie: creds.find((c) => c.category === 'SELFIE')!.id };
  };

  // The web page, sent as a phone's browser sends the form.
  const web = await create('demo-web-capture');
  const w = ids(web);
  const href = new URL(web.web.href);
  const form = new FormData();
  form.append('token', href.searchParams.get('token')!);
  form.append(`${w.id}:FRONT`, picture('document-front', 17), 'front.png');
  form.append(`${w.id}:BACK`, picture('document-back', 17), 'back.png');
  form.append(`${w.selfie}:FACE`, picture('face', 33), 'selfie.jpg');
  form.append('consent', 'yes');
  await ok(
    await fetch(`${url}${href.pathname}`, {
      method: 'POST',
      body: form,
      redirect: 'manual',
      headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile' },
    }),
    'web capture page',
  );

  // The SDK, as an Android app sends its captures.
  const app = await create('demo-sdk-capture');
  const s = ids(app);
  const headers = {
    authorization: `Bearer ${app.sdk.token}`,
    'x-sdk-platform': 'android',
    'x-sdk-version': '4.3.0',
    'x-sdk-os-name': 'Android 14',
  };
  const sdkPart = `${url}/sdk/v1/workflow-executions/${app.workflowExecution.id}/credentials`;
  for (const [cred, cls, blob, mode] of [
    [s.id, 'FRONT', picture('document-front', 29), 'auto_capture'],
    [s.id, 'BACK', picture('document-back', 29), 'auto_capture'],
    [s.selfie, 'FACE', picture('face', 58), 'manual_capture'],
  ] as const) {
    const body = new FormData();
    body.append('file', blob, `${cls.toLowerCase()}.bin`);
    body.append('captureMode', mode);
    if (cls === 'FRONT') body.append('consent', 'yes');
    await ok(await fetch(`${sdkPart}/${cred}/parts/${cls}`, { method: 'POST', headers, body }), `SDK ${cls}`);
  }
  return [web.workflowExecution.id, app.workflowExecution.id];
}
