// Test stack addresses: a port block away from the defaults so tests never collide with `npm start`.
export const BASE = Number(process.env.TEST_PORT_BASE ?? 14000);

export function stackEnv(base = BASE) {
  return {
    GATEWAY_PORT: String(base),
    PLATFORM_PORT: String(base + 1),
    AI_PORT: String(base + 2),
    CATALOG_PORT: String(base + 3),
    SEARCH_PORT: String(base + 4),
    REST_PORT: String(base + 80),
  };
}
