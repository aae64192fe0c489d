// Platform service: block catalog, licensing (account) and provisioning (app). JWT + X-Platform.
// License and provision are idempotent: 201 when created, 200 (same record) when already there.
// Path params: `:license_id` is the spec's `:id` of DELETE /accounts/:url_id/blocks/:id (a license
// id or a block unique_id); `:block_id` takes a block unique_id or an instance id.
import { resource } from '../jsonapi.js';
import type { BodySpec, Route } from '../types.js';

/** Block fields flattened into the license/instance resource: block_code, block_name. */
function withBlock(node: Record<string, any>): Record<string, unknown> {
  const { block, ...rest } = node;
  return { ...rest, blockCode: block?.code, blockName: block?.name };
}

const blockRes = (b: Record<string, unknown>) => resource('blocks', b, { uniqueId: true });
const licenseRes = (l: Record<string, any>) => resource('block_licenses', withBlock(l));
const instanceRes = (i: Record<string, any>) => resource('block_instances', withBlock(i));

const base = { service: 'platform', auth: 'jwt+platform' } as const;
const blockRefBody = (type: string): BodySpec => ({ type, input: 'input' });

export const PLATFORM_BLOCK_ROUTES: Route[] = [
  {
    ...base,
    method: 'GET',
    path: '/blocks',
    operation: 'ListBlocks',
    summary: 'The block catalog: the 17 blocks with their stable unique_id (blk_auth ... blk_wallet), code and name (platform:read)',
    variables: () => ({}),
    result: (d) => ({ data: d.blocks.map(blockRes) }),
    status: 200,
    responseType: 'blocks',
    list: true,
  },
  {
    ...base,
    method: 'GET',
    path: '/accounts/:url_id/blocks',
    operation: 'ListAccountBlocks',
    summary: 'Blocks licensed to the account, with the apps each is provisioned to',
    variables: (r) => ({ accountUrlId: r.params.url_id }),
    result: (d) => ({ data: d.accountBlocks.map(licenseRes) }),
    status: 200,
    responseType: 'block_licenses',
    list: true,
  },
  {
    ...base,
    method: 'POST',
    path: '/accounts/:url_id/blocks',
    operation: 'LicenseAccountBlock',
    summary: 'License a block to the account (idempotent: 201 created, 200 already licensed); unknown block_unique_id → 404 block_not_found',
    body: blockRefBody('block_licenses'),
    variables: (r) => ({ accountUrlId: r.params.url_id, input: r.attributes }),
    result: (d) => ({ data: licenseRes(d.licenseBlock.license), meta: { created: d.licenseBlock.created } }),
    status: 201,
    statusOf: (d) => (d.licenseBlock.created ? 201 : 200),
    responseType: 'block_licenses',
  },
  {
    ...base,
    method: 'DELETE',
    path: '/accounts/:url_id/blocks/:license_id',
    operation: 'RemoveAccountBlock',
    summary: 'Remove a license (by license id or block unique_id); 409 block_still_provisioned naming the apps while any app has the block',
    variables: (r) => ({ accountUrlId: r.params.url_id, id: r.params.license_id }),
    result: (d) => ({ data: licenseRes(d.removeBlockLicense) }),
    status: 200,
    responseType: 'block_licenses',
  },
  {
    ...base,
    method: 'GET',
    path: '/accounts/:url_id/apps/:app_id/blocks',
    operation: 'ListAppBlocks',
    summary: 'Blocks provisioned to the app',
    variables: (r) => ({ accountUrlId: r.params.url_id, appId: r.params.app_id }),
    result: (d) => ({ data: d.appBlocks.map(instanceRes) }),
    status: 200,
    responseType: 'block_instances',
    list: true,
  },
  {
    ...base,
    method: 'POST',
    path: '/accounts/:url_id/apps/:app_id/blocks',
    operation: 'ProvisionAppBlock',
    summary: "Provision a block licensed to the app's account (idempotent: 201 created, 200 already provisioned); unlicensed → 422 block_not_licensed",
    body: blockRefBody('block_instances'),
    variables: (r) => ({ accountUrlId: r.params.url_id, appId: r.params.app_id, input: r.attributes }),
    result: (d) => ({ data: instanceRes(d.provisionBlock.instance), meta: { created: d.provisionBlock.created } }),
    status: 201,
    statusOf: (d) => (d.provisionBlock.created ? 201 : 200),
    responseType: 'block_instances',
  },
  {
    ...base,
    method: 'DELETE',
    path: '/accounts/:url_id/apps/:app_id/blocks/:block_id',
    operation: 'DeprovisionAppBlock',
    summary: 'Deprovision a block from the app (by block unique_id or instance id); the license stays',
    variables: (r) => ({ accountUrlId: r.params.url_id, appId: r.params.app_id, blockId: r.params.block_id }),
    result: (d) => ({ data: instanceRes(d.deprovisionBlock) }),
    status: 200,
    responseType: 'block_instances',
  },
];
