/**
 * What remains of a result once its personal data is gone (wiped or deleted at the service, or
 * purged by the local retention setting): the decision metadata that trends and audits need,
 * nothing that identifies a person.
 */

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keeps ids, status, references, timestamps, decisions, labels, rules and feedback. */
export function stripPersonalData(result: Json): Json {
  const out: Json = {};
  for (const key of [
    'workflow',
    'account',
    'createdAt',
    'startedAt',
    'completedAt',
    'wipedOutAt',
    'decision',
    'feedback',
    'rules',
    'steps',
    'consent',
  ]) {
    if (key in result) out[key] = result[key];
  }
  if (Array.isArray(result.credentials)) {
    out.credentials = result.credentials.filter(isObject).map((c) => ({
      id: c.id,
      category: c.category,
      label: c.label,
      parts: Array.isArray(c.parts)
        ? c.parts.filter(isObject).map((p) => ({ classifier: p.classifier, captureType: p.captureType }))
        : undefined,
    }));
  }
  if (isObject(result.capabilities)) {
    const caps: Json = {};
    for (const [name, entries] of Object.entries(result.capabilities)) {
      if (!Array.isArray(entries)) continue;
      caps[name] = entries
        .filter(isObject)
        .map((e) => ({ id: e.id, credentials: e.credentials, decision: e.decision }));
    }
    out.capabilities = caps;
  }
  if (isObject(result.captureClient)) {
    const { client, platform, version, osName } = result.captureClient;
    out.captureClient = { client, platform, version, osName };
  }
  return out;
}
