/**
 * Paths of the service (service-facts, "Paths"; all under /api/v1) and parsing of the links it
 * sends. No server-only marker: pure string functions.
 */
import { IdvParseError } from './errors';

const e = encodeURIComponent;

export const idvPaths = {
  /** A1 POST */
  accounts: () => '/api/v1/accounts',
  /** A2 PUT, R9 GET, R10 DELETE */
  account: (accountId: string) => `/api/v1/accounts/${e(accountId)}`,
  /** C5 PUT (finalize), R2 GET, R3 DELETE */
  execution: (accountId: string, workflowExecutionId: string) =>
    `/api/v1/accounts/${e(accountId)}/workflow-executions/${e(workflowExecutionId)}`,
  /** C7 DELETE */
  credential: (accountId: string, workflowExecutionId: string, credentialId: string) =>
    `${idvPaths.execution(accountId, workflowExecutionId)}/credentials/${e(credentialId)}`,
  /** C1 PUT, C2 POST (multipart `file`), C3 POST PREPARED_DATA (JSON), C6 DELETE */
  part: (accountId: string, workflowExecutionId: string, credentialId: string, classifier: string) =>
    `${idvPaths.credential(accountId, workflowExecutionId, credentialId)}/parts/${e(classifier)}`,
  /** R1 GET: no workflow segment. */
  retrievalPart: (accountId: string, credentialId: string, classifier: string) =>
    `/api/v1/accounts/${e(accountId)}/credentials/${e(credentialId)}/parts/${e(classifier)}`,
  /** R5 */
  status: (a: string, w: string) => `${idvPaths.execution(a, w)}/status`,
  /** R6 */
  generate: (a: string, w: string) => `${idvPaths.execution(a, w)}/generate`,
  /** R7 */
  steps: (a: string, w: string) => `${idvPaths.execution(a, w)}/steps`,
  /** R8 */
  rules: (a: string, w: string) => `${idvPaths.execution(a, w)}/rules`,
  /** R11 PUT */
  feedback: (a: string, w: string) => `${idvPaths.execution(a, w)}/feedback`,
  /** R4 GET: the execution by id alone (the form of real callback links). */
  executionById: (workflowExecutionId: string) => `/api/v1/workflow-executions/${e(workflowExecutionId)}`,
  /** R12 GET ?page=&size= */
  executions: () => '/api/v1/workflow-executions',
};

export interface CallbackHrefIds {
  accountId?: string;
  workflowExecutionId: string;
}

/**
 * Ids from a `workflowExecution.href` of a callback or result. Accepts both forms:
 * `.../accounts/{a}/workflow-executions/{w}` (the docs) and `.../workflow-executions/{w}` (real
 * callbacks), absolute or relative, with trailing segments (`/status`) or a query. Throws an
 * `IdvParseError` when no execution id can be found. The ids are only for fetching the result
 * again: never trust a callback body beyond that.
 */
export function parseCallbackHref(href: string): CallbackHrefIds {
  let path: string;
  try {
    path = new URL(href, 'http://relative.invalid').pathname;
  } catch {
    path = href;
  }
  const segments = path.split('/').filter(Boolean).map(safeDecode);
  const w = segments.lastIndexOf('workflow-executions');
  const workflowExecutionId = w >= 0 ? segments[w + 1] : undefined;
  if (!workflowExecutionId) {
    throw new IdvParseError('callback href', [
      {
        code: 'custom',
        path: ['workflowExecution', 'href'],
        message: `no workflow-executions/{id} in ${JSON.stringify(href.slice(0, 200))}`,
        input: href,
      },
    ]);
  }
  let accountId: string | undefined;
  // `.../accounts/{a}/workflow-executions/{w}`; tolerate the documented `accounts/accounts/` typo.
  if (w >= 2 && segments[w - 2] === 'accounts' && segments[w - 1] !== 'accounts') accountId = segments[w - 1];
  return accountId ? { accountId, workflowExecutionId } : { workflowExecutionId };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** `.../credentials/{c}/parts/{x}` -> `.../credentials/{c}` (C7 needs the credential URL; the service issues part URLs). */
export function credentialUrlOf(partUrl: string): string {
  return partUrl.replace(/\/parts\/[^/?#]+\/?(?=$|[?#])/, '');
}
