import { parse } from 'graphql';
import { composeServices } from '@apollo/composition';
import { loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { createInfra } from '../lib/infra.js';
import { startSubgraph, subgraphSdl } from '../lib/subgraph.js';
import { startGateway } from '../gateway/gateway.js';
import { catalog } from '../subgraphs/catalog/index.js';

const cfg = loadConfig({ ...process.env, GATEWAY_PORT: '24000', CATALOG_PORT: '24003', PLATFORM_PORT: '24001' });
const log = createLogger({}, 'info');
const infra = await createInfra(cfg, log);
const sg = await startSubgraph(catalog, { cfg, log, pubsub: infra.pubsub, dbUrl: 'postgres://postgres@127.0.0.1:5432/smoke' });
const { supergraphSdl, errors } = composeServices([{ name: 'catalog', url: sg.url, typeDefs: parse(await subgraphSdl(catalog)) }]);
if (errors) throw errors[0];
const gw = await startGateway({ cfg, log, infra, supergraphSdl });
const q = async (query: string, headers: Record<string, string> = {}, url = gw.url) => {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });
  return `${r.status} ${await r.text()}`;
};
console.log(await q('{ products { total } }'));
console.log(await q('{ products { total } }', {}, sg.url));
console.log(await q('{ products { items { app { products { app { products { app { products { app { products { app { products { app { products { id } } } } } } } } } } } } } } }'));
console.log(await q('{ products { total } }', { 'x-app-id': 'app_x', 'x-api-key': 'sk_live_sh_aaaaaaaaaaaaaaaaaaaaaaaa' }));
console.log(await q('{ products { total } }', { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.bad' }));
await gw.stop(); await sg.stop(); await infra.close();
