/**
 * The one callback request of the benchmarks' storms (`bench:callbacks`, `bench:load`): a
 * service-shaped callback for one of `executions`, in turn, each with a unique `userReference`
 * (`<runTag>:<n>`) so that the database tells which acknowledged callbacks were stored. One request
 * in flight per connection: its autocannon context names the callback the answer is for.
 */
import type autocannon from 'autocannon';

export interface CallbackStorm {
  /** Callbacks built so far (the next one's number). */
  sent: number;
  /** References the receiver answered 200. */
  acknowledged: Set<string>;
}

export function callbackRequest(o: {
  simUrl: string;
  runTag: string;
  executions: Array<{ id: string; account: string }>;
  storm: CallbackStorm;
}): autocannon.Request {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    setupRequest: (req, context) => {
      const n = o.storm.sent++;
      const e = o.executions[n % o.executions.length];
      const ref = `${o.runTag}:${n}`;
      (context as { ref?: string }).ref = ref;
      return {
        ...req,
        body: JSON.stringify({
          callbackSentAt: new Date().toISOString(),
          userReference: ref,
          workflowExecution: {
            id: e.id,
            href: `${o.simUrl}/api/v1/workflow-executions/${e.id}`,
            definitionKey: '10013',
            status: 'PROCESSED',
          },
          account: { id: e.account, href: `${o.simUrl}/api/v1/accounts/${e.account}` },
        }),
      };
    },
    onResponse: (status, _body, context) => {
      if (status === 200) o.storm.acknowledged.add((context as { ref?: string }).ref!);
    },
  };
}
