// npm run -s openapi [-- <file>]: writes the REST bridge's OpenAPI document (the one GET /openapi.json
// serves) to <file>, or stdout, without starting anything. `npm run lint:openapi` lints it with
// Redocly (redocly.yaml) offline: telemetry and the update check are off.
import { writeFileSync } from 'node:fs';
import { loadApiSchema } from '../rest-bridge/api-schema.js';
import { deriveRoutes } from '../rest-bridge/derive.js';
import { VERSION } from '../rest-bridge/health.js';
import { buildOpenApi } from '../rest-bridge/openapi.js';
import { loadOperations } from '../rest-bridge/operations.js';
import { ROUTES } from '../rest-bridge/routes/index.js';

/** The document the bridge serves, built the same way (without PUBLIC_URL in servers). */
export function openApiDocument(): Record<string, unknown> {
  const operations = loadOperations();
  const schema = loadApiSchema();
  return buildOpenApi(ROUTES, deriveRoutes(ROUTES, operations, schema), { version: VERSION, examples: { operations, schema } });
}

if (import.meta.filename === process.argv[1]) {
  const text = JSON.stringify(openApiDocument(), null, 2) + '\n';
  const file = process.argv[2];
  if (file) writeFileSync(file, text);
  else process.stdout.write(text);
}
