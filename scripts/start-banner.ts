// The lines `npm start` prints under its addresses: the seed and the three browser pages.
/** What a newcomer does next, under the addresses of the stack just started. */
export function nextSteps(cfg: { host: string; restPort: number; gatewayUrl: string }): string {
  return [
    `next: \`npm run seed\` in another terminal makes a demo tenant and prints its keys, a GraphiQL link with them filled in and examples`,
    `      pages: ${cfg.gatewayUrl} (GraphiQL), http://${cfg.host}:${cfg.restPort}/docs (REST reference), http://${cfg.host}:${cfg.restPort}/data-room (data room)`,
  ].join('\n');
}
