import { createHmac } from 'node:crypto';
import { safeEqual } from '../auth';
import { bad, forbidden, notFound } from '../errors';
import { pdfReport } from '../pdf';
import { finalizeExecution } from '../engine/parts';
import { feedbackSchema, parseOr400 } from '../schemas';
import { readJson } from '../http/body';
import { P, uuidParam, type C, type RouteContext } from '../http/app';

/** R1-R8, R11, R12: results, parts, steps, rules, reports, feedback (access token). */
export function registerRetrievalRoutes(ctx: RouteContext) {
  const { d, engine, route, base, execUrl, now, retrieval, normClassifier, credentialPrelude } = ctx;
  // =====================================================================
  // R*: retrieval (access token)
  const execPrelude = async (c: C, withAccount = true) => {
    const a = withAccount ? uuidParam('accountId', P(c, 'a')) : undefined;
    const w = uuidParam('workflowExecutionId', P(c, 'w'));
    await retrieval(c);
    const ref = engine.findExecution(w);
    if (!ref || (a && engine.accountIdOf(ref) !== a))
      throw notFound(a ? `Workflow execution ${w} not found for account ${a}` : `Workflow execution ${w} not found`);
    return { ref, a: a ?? engine.accountIdOf(ref), w };
  };

  route('/api/v1/accounts/:a/workflow-executions/:w', {
    // R2
    GET: async (c) => {
      const { ref } = await execPrelude(c);
      return c.json(engine.view(ref).result);
    },
    // C5: finalize (transaction token)
    PUT: async (c) => {
      const { e } = await credentialPrelude(c, { credential: false, upload: false });
      finalizeExecution(engine, e);
      return c.json({ timestamp: now(), account: { id: e.accountId }, workflowExecution: { id: e.id } });
    },
    // R3: delete one execution
    DELETE: async (c) => {
      const { ref, a, w } = await execPrelude(c);
      engine.wipe(ref);
      return c.json({
        timestamp: now(),
        account: { id: a },
        workflowExecution: { id: w, wipedOutAt: engine.view(ref).result.wipedOutAt },
      });
    },
  });

  // R4: the execution by id alone (the form used in callback links)
  route('/api/v1/workflow-executions/:w', {
    GET: async (c) => {
      const { ref } = await execPrelude(c, false);
      return c.json(engine.view(ref).result);
    },
  });

  // R5
  route('/api/v1/accounts/:a/workflow-executions/:w/status', {
    GET: async (c) => {
      const { ref, a, w } = await execPrelude(c);
      const v = engine.view(ref);
      return c.json({
        account: { id: a, href: `${base()}/api/v1/accounts/${a}` },
        workflowExecution: { id: w, href: execUrl(a, w), definitionKey: v.definitionKey, status: v.status },
      });
    },
  });

  // R6: report link
  const sign = (w: string, exp: number) => createHmac('sha256', d.reportSecret).update(`${w}:${exp}`).digest('hex');
  route('/api/v1/accounts/:a/workflow-executions/:w/generate', {
    GET: async (c) => {
      const { ref, w } = await execPrelude(c);
      const v = engine.view(ref);
      if (v.status !== 'PROCESSED' || v.wiped)
        throw notFound('No report is available: the execution is not PROCESSED or its data was deleted');
      const exp = Math.floor(Date.now() / 1000) + 900;
      return c.json({
        workflowId: w,
        presignedUrl: `${base()}/reports/${w}.pdf?expires=${exp}&signature=${sign(w, exp)}`,
      });
    },
  });
  route('/reports/:file', {
    GET: async (c) => {
      const m = /^([0-9a-f-]{36})\.pdf$/i.exec(P(c, 'file'));
      if (!m) throw notFound('No such report');
      const w = m[1].toLowerCase();
      const exp = Number(c.req.query('expires'));
      const sig = c.req.query('signature') ?? '';
      if (!Number.isFinite(exp) || !safeEqual(sig, sign(w, exp))) throw forbidden('Invalid report signature');
      if (exp < Date.now() / 1000) throw forbidden('The report link has expired');
      const ref = engine.findExecution(w);
      if (!ref) throw notFound('No such report');
      const v = engine.view(ref);
      if (v.wiped) throw notFound('The report was deleted with the execution data');
      const r = v.result;
      const ex = r.capabilities?.extraction?.[0]?.data ?? {};
      const lines = [
        `Workflow execution: ${w}`,
        `Account: ${r.account?.id}`,
        `Definition key: ${r.workflow?.definitionKey}    Status: ${r.workflow?.status}`,
        `Created: ${r.createdAt}    Completed: ${r.completedAt ?? '-'}`,
        `Decision: ${r.decision?.type} (${r.decision?.details?.label})    Risk score: ${r.decision?.risk?.score}`,
        `Name: ${[ex.firstName, ex.lastName].filter(Boolean).join(' ') || '-'}    Date of birth: ${ex.dateOfBirth ?? '-'}`,
        `Document: ${ex.type ?? '-'} ${ex.issuingCountry ?? ''} ${ex.documentNumber ?? ''}`,
        '',
        'Capabilities:',
        ...Object.entries(r.capabilities ?? {}).map(
          ([k, list]) =>
            `  ${k}: ${(list as any[]).map((x) => `${x.decision.type}/${x.decision.details.label}`).join(', ')}`,
        ),
      ];
      return new Response(new Uint8Array(pdfReport('Identity verification report', lines)), {
        headers: { 'content-type': 'application/pdf', 'content-disposition': `inline; filename="${w}.pdf"` },
      });
    },
  });

  // R7, R8
  route('/api/v1/accounts/:a/workflow-executions/:w/steps', {
    GET: async (c) => {
      const { ref } = await execPrelude(c);
      const v = engine.view(ref);
      if (!v.steps) throw notFound('Steps are not available: the execution is not PROCESSED or its data was deleted');
      return c.json(v.steps);
    },
  });
  route('/api/v1/accounts/:a/workflow-executions/:w/rules', {
    GET: async (c) => {
      const { ref } = await execPrelude(c);
      const v = engine.view(ref);
      if (!v.rules)
        throw notFound('Rule executions are not available: the execution is not PROCESSED or its data was deleted');
      return c.json(v.rules);
    },
  });

  // R11: feedback
  route('/api/v1/accounts/:a/workflow-executions/:w/feedback', {
    PUT: async (c) => {
      const { ref, w } = await execPrelude(c);
      const body = await readJson(c);
      const fb = parseOr400(feedbackSchema, body, 'feedback body');
      const feedback = engine.setFeedback(ref, fb);
      d.stats.feedbackWrites.set(w.toLowerCase(), (d.stats.feedbackWrites.get(w.toLowerCase()) ?? 0) + 1);
      return c.json({ timestamp: now(), workflowExecution: { id: w }, feedback });
    },
  });

  // R1: part content
  route('/api/v1/accounts/:a/credentials/:c/parts/:classifier', {
    GET: async (c) => {
      const a = uuidParam('accountId', P(c, 'a'));
      const cid = uuidParam('credentialId', P(c, 'c'));
      const cls = normClassifier(P(c, 'classifier'));
      if (!['FRONT', 'BACK', 'FACE', 'DOCUMENT'].includes(cls))
        throw bad(`classifier must be one of FRONT, BACK, FACE (got "${cls.slice(0, 40)}")`);
      await retrieval(c);
      const p = engine.partContent(cid, cls);
      if (!p || p.accountId !== a)
        throw notFound(`No ${cls} part for credential ${cid} (it does not exist or was deleted)`);
      return new Response(new Uint8Array(p.bytes), {
        headers: {
          'content-type': p.contentType,
          'content-length': String(p.bytes.length),
          'cache-control': 'private, max-age=300',
        },
      });
    },
  });

  // R12: list, newest first
  const intParam = (name: string, raw: string | undefined, def: number, min: number, max: number) => {
    if (raw === undefined) return def;
    if (!/^\d+$/.test(raw))
      throw bad(
        `${name} must be an integer ${max === Infinity ? `>= ${min}` : `${min}..${max}`} (got "${raw.slice(0, 20)}")`,
      );
    const n = Number(raw);
    if (!Number.isSafeInteger(n) && max === Infinity) throw bad(`${name} is too large (got ${raw.slice(0, 20)})`);
    if (n < min || n > max)
      throw bad(`${name} must be ${max === Infinity ? `>= ${min}` : `${min}..${max}`} (got ${raw.slice(0, 20)})`);
    return n;
  };
  route('/api/v1/workflow-executions', {
    GET: async (c) => {
      const size = intParam('size', c.req.query('size'), 50, 1, 100);
      const page = intParam('page', c.req.query('page'), 1, 1, Infinity);
      await retrieval(c);
      return c.json({ workflowExecutions: engine.list(page, size) });
    },
  });
}
