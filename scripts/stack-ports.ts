// The port layout of a whole stack from one base port, shared by the test harness and the benches:
// the gateway at `base`, the subgraphs at +1…+4, the REST bridge at `restOffset`.
export function stackPortEnv(base: number, restOffset = 5): Record<string, string> {
  return {
    GATEWAY_PORT: String(base),
    PLATFORM_PORT: String(base + 1),
    AI_PORT: String(base + 2),
    CATALOG_PORT: String(base + 3),
    SEARCH_PORT: String(base + 4),
    REST_PORT: String(base + restOffset),
  };
}
