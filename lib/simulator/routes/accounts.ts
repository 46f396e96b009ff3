import { randomUUID } from 'node:crypto';
import { credentialsFor } from '../engine/accounts';
import { bad, notFound } from '../errors';
import { accountRequestSchema, parseOr400, tokenLifetimeSeconds, type AccountRequest } from '../schemas';
import type { ApiAccount, ExecutionRef } from '../state';
import { readJson } from '../http/body';
import { P, uuidParam, type C, type RouteContext } from '../http/app';
import { checkCallbackUrl, partNamesOf } from './params';

/** A1, A2: accounts (access token); R9, R10: an account and its executions. */
export function registerAccountRoutes(ctx: RouteContext) {
  const { d, engine, tokens, route, access, limit, base, execUrl, now, retrieval } = ctx;
  // =====================================================================
  // A1, A2: accounts
  const accountPrelude = async (c: C): Promise<AccountRequest> => {
    limit('account');
    await access(c);
    const ua = c.req.header('user-agent');
    if (!ua || !ua.trim())
      throw bad(
        'Header User-Agent is required on account operations (name your business and app, e.g. "Acme Review/1.0")',
      );
    const body = await readJson(c);
    const req = parseOr400(accountRequestSchema, body, 'account request');
    if (req.callbackUrl) checkCallbackUrl(req.callbackUrl, d.allowInsecureCallbacks, d.callbackHostAllowed);
    return req;
  };

  const createExecutionFor = async (c: C, account: ApiAccount, req: AccountRequest) => {
    const credentials = credentialsFor(engine, account, req);
    const w = randomUUID();
    const lifeSec = req.tokenLifetime ? tokenLifetimeSeconds(req.tokenLifetime) : 1800;
    let expiresAt = Date.now() + lifeSec * 1000;
    if (d.faults.tokenLifetimeSec) expiresAt = Math.min(expiresAt, Date.now() + d.faults.tokenLifetimeSec * 1000);
    const apiCreds = credentials.filter((x) => x.allowedChannels.includes('API')).map((x) => x.id);
    const scope = { wid: w, aid: account.id, cids: apiCreds };
    const token = await tokens.scopedToken('transaction', scope, expiresAt);
    const sdkToken = await tokens.scopedToken('sdk', { ...scope, cids: credentials.map((x) => x.id) }, expiresAt);
    // The web capture page's address carries its own token, as the real web client's link does.
    const webToken = await tokens.scopedToken('web', { ...scope, cids: credentials.map((x) => x.id) }, expiresAt);
    const e = engine.createExecution({
      account,
      request: req,
      credentials,
      tokenExpiresAt: expiresAt,
      token,
      sdkToken,
      id: w,
      clientIp: c.env?.incoming?.socket?.remoteAddress ?? '127.0.0.1',
      userAgent: c.req.header('user-agent') ?? '',
      callbackUrl: req.callbackUrl,
    });
    return c.json(
      {
        timestamp: now(),
        account: { id: account.id },
        // Spec: members of web "not shown"; href is the simulator's name for the capture page's address.
        web: { ...(req.web ?? {}), href: `${base()}/web/${w}?token=${webToken}` },
        sdk: { token: sdkToken },
        workflowExecution: {
          id: w,
          credentials: credentials.map((cr) => ({
            id: cr.id,
            category: cr.category,
            label: cr.label,
            ...(cr.country ? { country: cr.country } : {}),
            ...(cr.type ? { type: cr.type } : {}),
            allowedChannels: cr.allowedChannels,
            ...(cr.allowedChannels.includes('API')
              ? {
                  api: {
                    token: e.token,
                    parts: Object.fromEntries(
                      Object.entries(partNamesOf(cr.category)).map(([n, cls]) => [
                        n,
                        `${execUrl(account.id, w)}/credentials/${cr.id}/parts/${cls}`,
                      ]),
                    ),
                    workflowExecution: execUrl(account.id, w),
                  },
                }
              : {}),
          })),
        },
      },
      200,
    );
  };

  route('/api/v1/accounts', {
    POST: async (c) => {
      const req = await accountPrelude(c);
      const account: ApiAccount = { id: randomUUID(), createdAt: new Date(), executions: [] };
      engine.accounts.set(account.id, account);
      return createExecutionFor(c, account, req);
    },
  });

  route('/api/v1/accounts/:a', {
    PUT: async (c) => {
      const a = uuidParam('accountId', P(c, 'a'));
      const req = await accountPrelude(c);
      const found = engine.findAccount(a);
      if (!found) throw notFound(`Account ${a} not found`);
      if (found.kind === 'seed') {
        // A generated account becomes a real one on its first update.
        const acc: ApiAccount = {
          id: a,
          createdAt: new Date(engine.model.timeOf(Math.max(...engine.seedAccountExecutions(found.index)))),
          executions: [],
          seedIndex: found.index,
        };
        engine.accounts.set(a, acc);
        return createExecutionFor(c, acc, req);
      }
      return createExecutionFor(c, found.acc, req);
    },
    // R9: the account
    GET: async (c) => {
      const a = uuidParam('accountId', P(c, 'a'));
      await retrieval(c);
      const found = engine.findAccount(a);
      if (!found) throw notFound(`Account ${a} not found`);
      const items: Array<Record<string, unknown>> = [];
      let createdAt: string;
      const summary = (ref: ExecutionRef) => {
        const v = engine.view(ref);
        const id = engine.executionIdOf(ref);
        return {
          id,
          href: execUrl(a, id),
          definitionKey: v.definitionKey,
          status: v.status,
          createdAt: v.result.createdAt,
          ...(v.result.wipedOutAt ? { wipedOutAt: v.result.wipedOutAt } : {}),
        };
      };
      if (found.kind === 'api') {
        createdAt = found.acc.createdAt.toISOString();
        if (found.acc.seedIndex !== undefined)
          for (const i of engine.seedAccountExecutions(found.acc.seedIndex))
            items.push(summary({ kind: 'seed', index: i }));
        for (const id of found.acc.executions) {
          const e = engine.executions.get(id);
          if (e) items.push(summary({ kind: 'api', exec: e }));
        }
      } else {
        const idx = engine.seedAccountExecutions(found.index);
        createdAt = new Date(engine.model.timeOf(Math.max(...idx))).toISOString();
        for (const i of idx) items.push(summary({ kind: 'seed', index: i }));
      }
      items.sort((x, y) => String(y.createdAt).localeCompare(String(x.createdAt)));
      return c.json({
        account: { id: a, href: `${base()}/api/v1/accounts/${a}`, createdAt },
        workflowExecutions: items,
      });
    },
    // R10: delete the account and all its executions
    DELETE: async (c) => {
      const a = uuidParam('accountId', P(c, 'a'));
      await retrieval(c);
      const found = engine.findAccount(a);
      if (!found) throw notFound(`Account ${a} not found`);
      engine.deleteAccount(found);
      return c.json({ timestamp: now(), account: { id: a } });
    },
  });
}
