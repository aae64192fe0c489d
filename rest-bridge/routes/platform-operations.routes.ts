// An app's registered (trusted) operations over REST: list, upload a manifest (Apollo Client's
// persisted-query manifest or GraphQL Codegen's persisted-documents.json, as the `manifest`
// attribute), delete one, and the "registered operations only" setting (README "Registered
// operations"). JWT + X-Platform, the platform's scope table.
import type { Route, RouteInput } from '../types.js';
import { resource } from '../jsonapi.js';
import { base } from './platform-resources.js';

const read = { ...base, scope: 'platform:read' } as const;
const manage = { ...base, scope: 'platform:manage' } as const;

const OPERATIONS = '/accounts/:url_id/apps/:app_id/operations';
const SETTING = '/accounts/:url_id/apps/:app_id/operation_settings';
const appVars = (r: RouteInput) => ({ accountUrlId: r.params.url_id, appId: r.params.app_id });

const operationRes = (o: Record<string, unknown>) => resource('registered_operations', o);
/** the setting and an upload's outcome are the app's: their id is the app's */
const settingRes = (s: Record<string, unknown>, appId: string) => resource('operation_settings', { id: appId, ...s });

export const PLATFORM_OPERATION_ROUTES: Route[] = [
  {
    ...read,
    method: 'GET',
    path: OPERATIONS,
    operation: 'ListRegisteredOperations',
    summary: "List the app's registered operations, by the id clients send (platform:read)",
    variables: appVars,
    result: (d) => ({ data: d.registeredOperations.map(operationRes), meta: { total: d.registeredOperations.length } }),
    status: 200,
    responseType: 'registered_operations',
    list: true,
  },
  {
    ...manage,
    method: 'POST',
    path: OPERATIONS,
    operation: 'UploadOperationManifest',
    summary:
      'Register operations from a manifest (the `manifest` attribute): Apollo Client\'s persisted-query manifest ({"format": "apollo-persisted-query-manifest", "version": 1, "operations": [{"id", "name", "type", "body"}]}) or GraphQL Codegen\'s persisted-documents.json ({"<hash>": "<document>"}); ids already registered are kept (unchanged); at most 1,000 operations per upload (platform:manage)',
    body: { type: 'operation_manifests', args: ['manifest'] },
    variables: (r) => ({ ...appVars(r), manifest: r.attributes.manifest }),
    result: (d, r) => ({ data: resource('operation_manifests', { id: r.params.app_id, ...d.uploadOperationManifest }) }),
    status: 200,
    responseType: 'operation_manifests',
  },
  {
    ...manage,
    method: 'DELETE',
    path: `${OPERATIONS}/:id`,
    operation: 'DeleteRegisteredOperation',
    summary: 'Unregister one operation by its id (URL-encoded); an unknown id answers 404 (platform:manage)',
    variables: (r) => ({ ...appVars(r), id: r.params.id }),
    result: (_d, r) => ({ data: operationRes({ id: r.params.id }), meta: { deleted: true } }),
    status: 200,
    responseType: 'registered_operations',
  },
  {
    ...read,
    method: 'GET',
    path: SETTING,
    operation: 'GetRegisteredOperationsSetting',
    summary: '"Registered operations only": whether the whole app (app_only) or which of its keys (key_ids) accept registered operations only (platform:read)',
    variables: appVars,
    result: (d, r) => ({ data: settingRes(d.registeredOperationsSetting, r.params.app_id) }),
    status: 200,
    responseType: 'operation_settings',
  },
  {
    ...manage,
    method: 'PUT',
    path: SETTING,
    operation: 'SetRegisteredOperationsOnly',
    summary:
      '"Registered operations only" on or off (enabled), for the whole app, or for one of its keys (key_id): a document sent is then refused with 403 REGISTERED_OPERATIONS_ONLY, an id not registered with 403 OPERATION_NOT_REGISTERED (platform:manage)',
    body: { type: 'operation_settings', args: ['enabled', 'keyId'] },
    variables: (r) => ({ ...appVars(r), enabled: r.attributes.enabled, keyId: r.attributes.keyId ?? null }),
    result: (d, r) => ({ data: settingRes(d.setRegisteredOperationsOnly, r.params.app_id) }),
    status: 200,
    responseType: 'operation_settings',
  },
];
