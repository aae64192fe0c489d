// The request id on every gateway answer: the X-Request-Id header, and `extensions.requestId` on
// every error, so a client quoting an error names the request whose log lines (bridge, subgraphs)
// carry the same id. It comes from the caller (the REST bridge forwards its own) or is made by
// the authenticator, and rides in the signed tenant context to the subgraphs.
import type { GatewayContext } from './data-source.js';
import type { OperationHooks, OperationPlugin } from './operation-plugins.js';

// one set of hooks for every request: the id is read from the request's context
const hooks: OperationHooks<GatewayContext> = {
  willSendResponse({ response, contextValue }) {
    const requestId = contextValue.tenant?.requestId;
    if (!requestId) return;
    response.http.headers.set('x-request-id', requestId);
    if (response.body.kind !== 'single' || !response.body.singleResult.errors) return;
    response.body.singleResult.errors = response.body.singleResult.errors.map((e) => ({ ...e, extensions: { ...e.extensions, requestId } }));
  },
};

export const requestIdPlugin: OperationPlugin<GatewayContext> = { requestDidStart: () => hooks };
