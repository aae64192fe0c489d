// The image's HEALTHCHECK: GET /health of this container's role on its own port (exit 0 when it
// answers 200). ROLE=migrate runs once and exits, so it has nothing to check.
const role = process.argv[2] ?? process.env.ROLE;
const PORTS = {
  rest: ['REST_PORT', 8080],
  all: ['REST_PORT', 8080],
  gateway: ['GATEWAY_PORT', 4000],
  platform: ['PLATFORM_PORT', 4001],
  ai: ['AI_PORT', 4002],
  catalog: ['CATALOG_PORT', 4003],
  search: ['SEARCH_PORT', 4004],
};
if (role === 'migrate') process.exit(0);
const [variable, fallback] = PORTS[role] ?? ['REST_PORT', 8080];
const port = process.env[variable] || fallback;
try {
  const res = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2500) });
  process.exit(res.ok ? 0 : 1);
} catch {
  process.exit(1);
}
