// deploy/k8s/: both overlays render offline (scripts/k8s-render.ts) and every object validates
// against the Kubernetes OpenAPI schemas (kubernetes-models); each role has its Deployment, Service,
// PodDisruptionBudget and HorizontalPodAutoscaler, probes on the process's own /health endpoints, a
// grace period that outlasts the drain, and every README Environment variable is accounted for.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';
import { parse } from 'yaml';
import { applyPatch, renderKustomization, type K8sObject } from '../../scripts/k8s-render.js';
import { ROOT, readmeEnvironmentVariables } from './readme-env.js';

const K8S = resolve(ROOT, 'deploy', 'k8s');
const ROLES = { gateway: 'GATEWAY_PORT', rest: 'REST_PORT', platform: 'PLATFORM_PORT', ai: 'AI_PORT', catalog: 'CATALOG_PORT', search: 'SEARCH_PORT' } as const;
const overlays = { small: renderKustomization(resolve(K8S, 'overlays', 'small')), large: renderKustomization(resolve(K8S, 'overlays', 'large')) };

type Probe = { httpGet?: { path: string; port: string | number }; periodSeconds?: number; failureThreshold?: number };
type Container = {
  image: string;
  env?: { name: string; value?: string }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  ports?: { name: string; containerPort: number }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  startupProbe?: Probe;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command: string[] }; sleep?: { seconds: number } } };
};
type PodSpec = { containers: Container[]; terminationGracePeriodSeconds?: number };
type Workload = K8sObject & { spec: { replicas?: number; template: { spec: PodSpec } } };

const find = (objects: K8sObject[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
const configOf = (objects: K8sObject[]) => (find(objects, 'ConfigMap', 'platform-config') as K8sObject & { data: Record<string, string> }).data;

/** The kubernetes-models class of an object's apiVersion and kind (core: v1/<Kind>). */
async function modelOf(o: K8sObject): Promise<new (data: unknown) => { validate(): void }> {
  const path = `kubernetes-models/${o.apiVersion}/${o.kind}`;
  const mod = (await import(path)) as Record<string, new (data: unknown) => { validate(): void }>;
  return mod[o.kind];
}

describe.each(Object.entries(overlays))('overlay %s', (_name, objects) => {
  test('every object validates against the Kubernetes OpenAPI schema of its kind', async () => {
    expect(objects.length).toBeGreaterThan(20);
    for (const o of objects) {
      const Model = await modelOf(o);
      expect(() => new Model(o).validate()).not.toThrow();
      expect(o.metadata.namespace).toBe('platform');
    }
    // the schema check is live: a port given as text is refused
    const bad = structuredClone(find(objects, 'Deployment', 'gateway')) as Workload;
    (bad.spec.template.spec.containers[0].ports![0] as { containerPort: unknown }).containerPort = 'http';
    const DeploymentModel = await modelOf(bad);
    expect(() => new DeploymentModel(bad).validate()).toThrow(/containerPort must be integer/);
    // names are unique per kind, as the API server requires
    const keys = objects.map((o) => `${o.kind}/${o.metadata.name}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  test.each(Object.entries(ROLES))('%s: Deployment, Service, PodDisruptionBudget, HPA, probes and drain', (role, portVariable) => {
    const config = configOf(objects);
    const d = find(objects, 'Deployment', role) as Workload;
    expect(d).toBeDefined();
    const pod = d.spec.template.spec;
    const [c] = pod.containers;
    expect(c.image).toBe('localhost/supergraph-platform:0.1.0');
    expect(c.env).toContainEqual({ name: 'ROLE', value: role });
    expect(c.envFrom).toEqual([{ configMapRef: { name: 'platform-config' } }, { secretRef: { name: 'platform-secrets' } }]);
    // the container listens where the ConfigMap tells the process to, and the Service sends there
    expect(c.ports).toEqual([{ name: 'http', containerPort: Number(config[portVariable]) }]);
    const svc = find(objects, 'Service', role) as K8sObject & { spec: { ports: { port: number; targetPort: string }[] } };
    expect(svc.spec.ports).toEqual([expect.objectContaining({ port: Number(config[portVariable]), targetPort: 'http' })]);
    expect(c.resources?.requests?.cpu).toBeDefined();
    expect(c.resources?.requests?.memory).toBeDefined();
    expect(c.resources?.limits?.memory).toBeDefined();
    // probes: the process's own endpoints (lib/lifecycle.ts): ready answers for itself, /health is alive
    expect(c.startupProbe?.httpGet).toEqual({ path: '/health', port: 'http' });
    expect(c.readinessProbe?.httpGet).toEqual({ path: '/health/ready', port: 'http' });
    expect(c.livenessProbe?.httpGet).toEqual({ path: '/health', port: 'http' });
    // the pod is given the whole drain: preStop, then SIGTERM → SHUTDOWN_DELAY_MS serving unready →
    // SHUTDOWN_GRACE_MS draining → +1 s before lib/main.ts gives up
    const preStop = c.lifecycle?.preStop;
    const preStopSeconds = preStop?.sleep?.seconds ?? (preStop?.exec?.command[0] === 'sleep' ? Number(preStop.exec.command[1]) : 0);
    const drainSeconds = preStopSeconds + (Number(config.SHUTDOWN_DELAY_MS) + Number(config.SHUTDOWN_GRACE_MS)) / 1000 + 1;
    expect(Number(config.SHUTDOWN_DELAY_MS)).toBeGreaterThan(0);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(drainSeconds);
    // a disruption budget and an autoscaler that keep at least one replica serving
    const pdb = find(objects, 'PodDisruptionBudget', role) as K8sObject & { spec: { maxUnavailable: number; selector: unknown } };
    expect(pdb.spec.maxUnavailable).toBe(1);
    expect(pdb.spec.selector).toEqual({ matchLabels: { 'app.kubernetes.io/component': role } });
    expect(d.spec.replicas).toBeGreaterThanOrEqual(2);
    const hpa = find(objects, 'HorizontalPodAutoscaler', role) as K8sObject & {
      spec: { scaleTargetRef: { kind: string; name: string }; minReplicas: number; maxReplicas: number; metrics: { type: string; pods?: { metric: { name: string } }; external?: { metric: { name: string } } }[] };
    };
    expect(hpa.spec.scaleTargetRef).toEqual(expect.objectContaining({ kind: 'Deployment', name: role }));
    expect(hpa.spec.minReplicas).toBe(d.spec.replicas);
    expect(hpa.spec.maxReplicas).toBeGreaterThan(hpa.spec.minReplicas);
    const metrics = hpa.spec.metrics.map((m) => m.pods?.metric.name ?? m.external?.metric.name ?? m.type);
    expect(metrics).toEqual(expect.arrayContaining(['Resource', 'nodejs_eventloop_lag_p99_seconds']));
    if (role === 'ai' || role === 'catalog' || role === 'search') expect(metrics).toContain('jobs_queue_lag_seconds');
  });

  test('the Ingress sends GraphQL (and its WebSockets) to the gateway and the rest to the REST bridge', () => {
    const ing = find(objects, 'Ingress', 'platform') as K8sObject & {
      metadata: { annotations: Record<string, string> };
      spec: { rules: { http: { paths: { path: string; backend: { service: { name: string; port: { name: string } } } }[] } }[] };
    };
    const routes = Object.fromEntries(ing.spec.rules[0].http.paths.map((p) => [p.path, p.backend.service.name]));
    expect(routes).toEqual({ '/graphql': 'gateway', '/': 'rest' });
    // an idle subscription outlives the controller's default 60 s read timeout
    expect(Number(ing.metadata.annotations['nginx.ingress.kubernetes.io/proxy-read-timeout'])).toBeGreaterThanOrEqual(3600);
  });

  test('the migration Job runs ROLE=migrate once with the same configuration', () => {
    const job = find(objects, 'Job', 'migrate') as Workload;
    const [c] = job.spec.template.spec.containers;
    expect(c.env).toEqual([{ name: 'ROLE', value: 'migrate' }]);
    expect(c.envFrom).toEqual([{ configMapRef: { name: 'platform-config' } }, { secretRef: { name: 'platform-secrets' } }]);
    expect((job.spec.template.spec as { restartPolicy?: string }).restartPolicy).toBe('Never');
    expect(configOf(objects).MIGRATE_ON_START).toBe('0');
  });
});

// The OpenAPI check above accepts unknown fields (as the API server's non-strict mode does), so a
// misspelt optional field (`periodSecond`) would pass. TypeScript's excess-property check against
// kubernetes-models' interfaces refuses them: each rendered object is written as a typed literal.
test('no object carries a field its kind does not have (TypeScript against the kinds\' interfaces)', () => {
  const dir = resolve(ROOT, '.data', 'k8s-fields');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const file = resolve(dir, 'objects.ts');
  const lines = [`import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';`];
  Object.values(overlays).flat().forEach((o, i) => {
    lines.push(`import type { I${o.kind} as T${i} } from 'kubernetes-models/${o.apiVersion}/${o.kind}';`);
    lines.push(`export const o${i}: T${i} = ${JSON.stringify(o)};`);
  });
  // the check is live: a misspelt probe field must be refused (else the directive itself is an error)
  const misspelt = structuredClone(find(overlays.small, 'Deployment', 'gateway')) as Workload;
  (misspelt.spec.template.spec.containers[0].readinessProbe as Record<string, unknown>).periodSecond = 3;
  lines.push('// @ts-expect-error periodSecond is not a field of a Probe', `export const misspelt: IDeployment = ${JSON.stringify(misspelt)};`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  const program = ts.createProgram([file], { strict: true, noEmit: true, skipLibCheck: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, types: [] });
  const errors = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n')[0]);
  rmSync(dir, { recursive: true, force: true });
  expect(errors).toEqual([]);
});

test('the large overlay has more of every role than the small one, and room for more search documents', () => {
  for (const role of Object.keys(ROLES)) {
    const small = find(overlays.small, 'Deployment', role) as Workload;
    const large = find(overlays.large, 'Deployment', role) as Workload;
    expect(large.spec.replicas).toBeGreaterThan(small.spec.replicas!);
  }
  expect(Number(configOf(overlays.large).SEARCH_MEMORY_BUDGET_MB)).toBeGreaterThan(Number(configOf(overlays.small).SEARCH_MEMORY_BUDGET_MB));
});

test('every variable of the README Environment table is in the ConfigMap, the Secret, or named as left unset', () => {
  const base = resolve(K8S, 'base');
  const configKeys = Object.keys(configOf(overlays.small));
  const secretKeys = readFileSync(resolve(base, 'secrets.env.example'), 'utf8')
    .split('\n')
    .filter((l) => /^[A-Z]/.test(l))
    .map((l) => l.split('=')[0]);
  const unset = [...readFileSync(resolve(base, 'config.yaml'), 'utf8').matchAll(/^# ([A-Z][A-Z0-9_]+): /gm)].map((m) => m[1]);
  // nothing is in two places (a key set twice would depend on envFrom order)
  const all = [...configKeys, ...secretKeys, ...unset];
  expect(all.filter((k, i) => all.indexOf(k) !== i)).toEqual([]);
  const missing = readmeEnvironmentVariables().filter((v) => !all.includes(v));
  expect(missing).toEqual([]);
});

test('the renderer applies JSON patches as RFC 6902 says and refuses what it does not support', () => {
  const o = { a: { b: [1, 2] }, c: 1 };
  expect(applyPatch(o, [{ op: 'add', path: '/a/b/-', value: 3 }, { op: 'replace', path: '/c', value: 2 }, { op: 'remove', path: '/a/b/0' }])).toEqual({ a: { b: [2, 3] }, c: 2 });
  expect(o).toEqual({ a: { b: [1, 2] }, c: 1 });
  expect(() => applyPatch(o, [{ op: 'replace', path: '/missing', value: 1 }])).toThrow(/nothing there/);
  // every field of every kustomization under deploy/k8s is one the renderer implements
  for (const dir of ['base', 'overlays/small', 'overlays/large']) {
    const k = parse(readFileSync(resolve(K8S, dir, 'kustomization.yaml'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(k).every((f) => ['apiVersion', 'kind', 'resources', 'namespace', 'labels', 'images', 'replicas', 'patches'].includes(f))).toBe(true);
  }
});
