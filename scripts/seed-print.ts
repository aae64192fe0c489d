// What `npm run seed` prints: the keys, GraphiQL with them filled in (gateway/graphiql.ts reads
// `?headers=`), the data room and examples that work as pasted in bash or sh.
export interface SeedSummary {
  rest: string;
  gateway: string;
  platform: string;
  adminToken: string;
  account: string;
  appId: string;
  secretKey: string;
  publishableKey: string;
  userId: string;
  userToken: string;
  userLifetimeSec: number;
  products: number;
  firstProduct: { id: string; sku: string; name: string };
  index: string;
  documents: number;
  prompt: string;
  graphiql?: string;
  examples?: Record<'listProducts' | 'search' | 'graphql' | 'sentiment', string>;
}

/** The summary with its GraphiQL link and curl examples. */
export function withExamples(s: SeedSummary): SeedSummary {
  const keyArgs = `-H 'X-App-Id: ${s.appId}' -H 'X-Api-Key: ${s.secretKey}'`;
  const graphqlQuery = '{ products(pageSize: 3) { total items { id name sku price { formatted } } } }';
  const headers = JSON.stringify({ 'X-App-Id': s.appId, 'X-Api-Key': s.secretKey });
  return {
    ...s,
    graphiql: `${s.gateway}?headers=${encodeURIComponent(headers)}`,
    examples: {
      listProducts: `curl -sg ${keyArgs} '${s.rest}/v1/products?page[size]=3'`,
      search: `curl -s ${keyArgs} -H 'Content-Type: application/json' -d '{"data":{"type":"search_queries","attributes":{"query":"harry potter","limit":3,"facets":["language"]}}}' '${s.rest}/search/v1/indexes/${s.index}/search'`,
      graphql: `curl -s ${keyArgs} -H 'Content-Type: application/json' -d '${JSON.stringify({ query: graphqlQuery })}' '${s.gateway}'`,
      sentiment: `curl -s ${keyArgs} -H 'Authorization: Bearer ${s.userToken}' -H 'Content-Type: application/json' -d '{"data":{"type":"sentiment_requests","attributes":{"text":"Great book!"}}}' '${s.rest}/ai/v1/text/sentiment'`,
    },
  };
}

export function printSeed(s: SeedSummary, file: string): string {
  const e = s.examples!;
  return `
Demo tenant ready (run again any time: it reuses it; all of this is also in ${file}):
  platform        ${s.platform}   (admin JWT, 1 h: ${s.adminToken})
  account         ${s.account}
  app             ${s.appId}
  secret key      ${s.secretKey}
  publishable key ${s.publishableKey}
  user (AI)       ${s.userId}   (JWT, ${Math.round(s.userLifetimeSec / 3600)} h: ${s.userToken})
  data            ${s.products} products, index "${s.index}" with ${s.documents} books, prompt ${s.prompt}

GraphiQL with these keys in its Headers tab (open in a browser):
  ${s.graphiql}

Data room (sign in with the admin JWT above): ${s.rest}/data-room
REST reference: ${s.rest}/docs

For the README's examples and \`npm run import\`:
  export APP_ID='${s.appId}' API_KEY='${s.secretKey}'

Try (each line works as pasted):
  ${e.listProducts}
  ${e.search}
  ${e.graphql}
  ${e.sentiment}
`;
}

/** `npm run -s seed -- --env`: the values a shell needs, for eval. */
export function envExports(s: SeedSummary): string {
  const q = (v: string) => `'${v.replace(/'/g, `'\\''`)}'`;
  return [`export APP_ID=${q(s.appId)}`, `export API_KEY=${q(s.secretKey)}`, `export PUBLISHABLE_KEY=${q(s.publishableKey)}`, `export ADMIN_TOKEN=${q(s.adminToken)}`, `export USER_TOKEN=${q(s.userToken)}`].join('\n');
}
