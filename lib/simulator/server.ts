// HTTP surface of the simulator: every operation of the spec (T, A1, A2, C1-C7, R1-R12) on one base
// URL, with the paths of ../shared/reference/service-facts.md, plus health, a presigned report URL,
// the web capture page (/web), the SDK's path (/sdk/v1) and /__sim test tools. Transport (http/) is apart from the operations (routes/), which parse,
// ask the engine (state.ts) and respond.
import { createHttp, type ServerDeps } from './http/app';
import { registerAccountRoutes } from './routes/accounts';
import { registerCredentialRoutes } from './routes/credentials';
import { registerHealthAndTokenRoutes } from './routes/health-token';
import { registerRetrievalRoutes } from './routes/retrieval';
import { registerSdkRoutes } from './routes/sdk';
import { registerTestToolRoutes } from './routes/test-tools';
import { registerWebRoutes } from './routes/web';

export type { ServerDeps };
export { redactUrl } from './http/limits';
export { MAX_DOCUMENT_PAGES } from './engine/parts';
export { isLoopbackHost } from './routes/params';
export function createApp(d: ServerDeps) {
  const ctx = createHttp(d);
  registerHealthAndTokenRoutes(ctx);
  registerAccountRoutes(ctx);
  registerCredentialRoutes(ctx);
  registerRetrievalRoutes(ctx);
  registerTestToolRoutes(ctx);
  registerWebRoutes(ctx);
  registerSdkRoutes(ctx);
  return { app: ctx.app, resetAll: ctx.resetAll };
}
