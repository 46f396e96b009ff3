// The rules of an account request's workflow (A1, A2): which credentials a new execution gets,
// with their channels, and the reuse of a credential of an earlier execution of the account.
import { randomUUID } from 'node:crypto';
import { CATEGORY_LABELS, DEFINITION_BY_KEY, defaultChannels, type KnownCategory } from '../catalog';
import { bad } from '../errors';
import type { AccountRequest } from '../schemas';
import type { ApiAccount, ApiCredential, Engine } from '../state';

/** The credentials of a new execution for this request; a 400 names the field that breaks a rule. */
export function credentialsFor(engine: Engine, account: ApiAccount, req: AccountRequest): ApiCredential[] {
  const def = DEFINITION_BY_KEY.get(req.workflowDefinition.key);
  const reqCreds =
    req.workflowDefinition.credentials ??
    def?.categories.map(
      (category) => ({ category }) as NonNullable<AccountRequest['workflowDefinition']['credentials']>[number],
    );
  if (!reqCreds || !reqCreds.length)
    throw bad(
      `workflowDefinition.credentials: required for workflow definition key "${req.workflowDefinition.key}" (known keys without credentials: ${[...DEFINITION_BY_KEY.keys()].join(', ')})`,
    );
  const seen = new Set<string>();
  const credentials: ApiCredential[] = reqCreds.map((rc, i) => {
    const at = `workflowDefinition.credentials[${i}]`;
    if (seen.has(rc.category))
      throw bad(`${at}.category: at most one ${rc.category} credential per workflow execution`);
    seen.add(rc.category);
    const channels = rc.allowedChannels ? [...new Set(rc.allowedChannels)] : defaultChannels(rc.category);
    if (rc.category === 'FACEMAP' && channels.includes('API'))
      throw bad(`${at}.allowedChannels: a FACEMAP credential is captured only through WEB or SDK`);
    if (rc.category === 'DATA' && !channels.includes('API'))
      throw bad(`${at}.allowedChannels: a DATA credential is uploaded only through the API channel`);
    const cred: ApiCredential = {
      id: randomUUID(),
      category: rc.category,
      label: CATEGORY_LABELS[rc.category as KnownCategory] ?? rc.category,
      country: rc.country,
      type: rc.type,
      allowedChannels: channels,
      parts: new Map(),
      pages: [],
    };
    if (rc.id) {
      const prev = account.executions
        .map((id) => engine.executions.get(id))
        .flatMap((e) => e?.credentials ?? [])
        .find((x) => x.id === rc.id!.toLowerCase());
      if (!prev) throw bad(`${at}.id: no credential ${rc.id} exists on this account`);
      if (prev.category !== rc.category)
        throw bad(`${at}.id: credential ${rc.id} is a ${prev.category} credential, not ${rc.category}`);
      Object.assign(cred, {
        id: prev.id,
        parts: new Map(prev.parts),
        pages: [...prev.pages],
        preparedData: prev.preparedData,
        preparedDataPartId: prev.preparedDataPartId,
      });
    }
    return cred;
  });
  return credentials;
}
