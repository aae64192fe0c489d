// Platform service, data transfers (document 1). The admin rows (platform:admin) create transfers
// for an account and read their audit trail; the public rows (/data_transfers/:code...) need no
// credentials: the transfer code is the handle, and accept / decline / events also carry the
// access token that verify_access returns (in the body: the bridge forwards Authorization to the
// gateway, which would read it as a JWT or an API key).
import { resource } from '../jsonapi.js';
import type { Route } from '../types.js';

const transferRes = (t: Record<string, unknown>) => resource('data_transfers', t);
const publicRes = (t: Record<string, unknown>) => {
  const { code, ...rest } = t;
  return resource('data_transfers', { id: code, code, ...rest });
};
const auditRes = (a: Record<string, unknown>) => resource('data_transfer_audit_entries', a);

const admin = { service: 'platform', auth: 'jwt+platform' } as const;
const open = { service: 'platform', auth: 'none' } as const;

export const PLATFORM_TRANSFER_ROUTES: Route[] = [
  {
    ...admin,
    method: 'POST',
    path: '/accounts/:url_id/data_transfers',
    operation: 'CreateDataTransfer',
    summary: 'Create a data transfer for the account (platform:admin); share its code with the recipient',
    body: { type: 'data_transfers', input: 'input' },
    variables: (r) => ({ accountUrlId: r.params.url_id, input: r.attributes }),
    result: (d) => ({ data: transferRes(d.createDataTransfer) }),
    status: 201,
    responseType: 'data_transfers',
  },
  {
    ...admin,
    method: 'GET',
    path: '/accounts/:url_id/data_transfers',
    operation: 'ListDataTransfers',
    summary: "The account's data transfers, newest first (platform:admin)",
    variables: (r) => ({ accountUrlId: r.params.url_id }),
    result: (d) => ({ data: d.dataTransfers.map(transferRes) }),
    status: 200,
    responseType: 'data_transfers',
    list: true,
  },
  {
    ...admin,
    method: 'GET',
    path: '/accounts/:url_id/data_transfers/:transfer_code',
    operation: 'GetAccountDataTransfer',
    summary: 'Show a data transfer (platform:admin)',
    variables: (r) => ({ accountUrlId: r.params.url_id, code: r.params.transfer_code }),
    result: (d) => ({ data: transferRes(d.accountDataTransfer) }),
    status: 200,
    responseType: 'data_transfers',
  },
  {
    ...admin,
    method: 'GET',
    path: '/accounts/:url_id/data_transfers/:transfer_code/audit',
    operation: 'GetDataTransferAudit',
    summary: 'The append-only audit trail of a data transfer, oldest first (platform:admin)',
    variables: (r) => ({ accountUrlId: r.params.url_id, code: r.params.transfer_code }),
    result: (d) => ({ data: d.dataTransferAudit.map(auditRes) }),
    status: 200,
    responseType: 'data_transfer_audit_entries',
    list: true,
  },
  {
    ...open,
    method: 'GET',
    path: '/data_transfers/:code',
    operation: 'GetPublicDataTransfer',
    summary: 'Public: the transfer details (no secrets); 404 unknown code, 410 expired',
    variables: (r) => ({ code: r.params.code }),
    result: (d) => ({ data: publicRes(d.publicDataTransfer) }),
    status: 200,
    responseType: 'data_transfers',
  },
  {
    ...open,
    method: 'POST',
    path: '/data_transfers/:code/request_access',
    operation: 'RequestDataTransferAccess',
    summary: 'Public: send a one-time access code to the recipient (15 minutes; at most 5 an hour). No body',
    variables: (r) => ({ code: r.params.code }),
    result: (d) => ({ data: resource('data_transfer_access_requests', { id: d.requestDataTransferAccess.code, ...d.requestDataTransferAccess }) }),
    status: 200,
    responseType: 'data_transfer_access_requests',
  },
  {
    ...open,
    method: 'POST',
    path: '/data_transfers/:code/verify_access',
    operation: 'VerifyDataTransferAccess',
    summary: 'Public: trade the access code for an access token (30 minutes) for accept, decline and events',
    body: { type: 'data_transfer_access', args: ['accessCode'], anyType: true },
    variables: (r) => ({ code: r.params.code, accessCode: r.attributes.accessCode ?? '' }),
    result: (d) => ({ data: resource('data_transfer_access', { id: d.verifyDataTransferAccess.code, ...d.verifyDataTransferAccess }) }),
    status: 200,
    responseType: 'data_transfer_access',
  },
  {
    ...open,
    method: 'POST',
    path: '/data_transfers/:code/accept',
    operation: 'AcceptDataTransfer',
    summary: 'Public, verified access: accept the agreement (exactly once: 409 afterwards)',
    body: { type: 'data_transfer_decisions', args: ['accessToken'], anyType: true },
    variables: (r) => ({ code: r.params.code, accessToken: r.attributes.accessToken ?? '' }),
    result: (d) => ({ data: publicRes(d.acceptDataTransfer) }),
    status: 200,
    responseType: 'data_transfers',
  },
  {
    ...open,
    method: 'POST',
    path: '/data_transfers/:code/decline',
    operation: 'DeclineDataTransfer',
    summary: 'Public, verified access: decline the agreement, with an optional reason (exactly once: 409 afterwards)',
    body: { type: 'data_transfer_decisions', args: ['accessToken', 'reason'], anyType: true },
    variables: (r) => ({ code: r.params.code, accessToken: r.attributes.accessToken ?? '', reason: r.attributes.reason ?? null }),
    result: (d) => ({ data: publicRes(d.declineDataTransfer) }),
    status: 200,
    responseType: 'data_transfers',
  },
  {
    ...open,
    method: 'POST',
    path: '/data_transfers/:code/events',
    operation: 'RecordDataTransferEvent',
    summary: 'Public, verified access: record viewed, downloaded (after acceptance), printed, shared or other',
    body: { type: 'data_transfer_events', args: ['accessToken', 'eventType', 'detail'], anyType: true },
    variables: (r) => ({ code: r.params.code, accessToken: r.attributes.accessToken ?? '', eventType: r.attributes.eventType ?? '', detail: r.attributes.detail ?? null }),
    result: (d) => ({ data: auditRes(d.recordDataTransferEvent) }),
    status: 201,
    responseType: 'data_transfer_audit_entries',
  },
];
