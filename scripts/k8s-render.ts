// Render a kustomization of deploy/k8s/ offline, without the kustomize binary (not packaged by Debian
// or npm): the subset of kustomize the manifests use, applied as kustomize applies it: `resources`
// (files and kustomization folders, bases first), `namespace`, `labels` (metadata only, optionally
// the pod templates), `images` (newName/newTag), `replicas` and `patches` as inline JSON 6902
// operations with a kind/name target. Any other field is refused, so a manifest that needs more of
// kustomize fails here instead of rendering differently. Used by test/deploy/k8s.test.ts.
//   npm run -s k8s:render -- deploy/k8s/overlays/small   (the YAML `kubectl apply -f -` takes)
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments, parse, stringify } from 'yaml';

export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; [k: string]: unknown };
  [k: string]: unknown;
};

type Kustomization = {
  apiVersion?: string;
  kind?: string;
  resources?: string[];
  namespace?: string;
  labels?: { pairs: Record<string, string>; includeSelectors?: boolean; includeTemplates?: boolean }[];
  images?: { name: string; newName?: string; newTag?: string }[];
  replicas?: { name: string; count: number }[];
  patches?: { target: { kind?: string; name?: string }; patch: string }[];
};

const FIELDS = new Set(['apiVersion', 'kind', 'resources', 'namespace', 'labels', 'images', 'replicas', 'patches']);
/** Kinds that live outside namespaces (the namespace transformer leaves them alone). */
const CLUSTER_KINDS = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'PersistentVolume', 'StorageClass', 'IngressClass']);

export function renderKustomization(dir: string): K8sObject[] {
  const k = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as Kustomization;
  for (const field of Object.keys(k)) {
    if (!FIELDS.has(field)) throw new Error(`${dir}/kustomization.yaml: "${field}" is not supported by scripts/k8s-render.ts`);
  }
  let objects: K8sObject[] = [];
  for (const r of k.resources ?? []) {
    const path = resolve(dir, r);
    if (statSync(path).isDirectory()) objects.push(...renderKustomization(path));
    else objects.push(...readObjects(path));
  }
  for (const p of k.patches ?? []) {
    const ops = parse(p.patch) as Operation[];
    if (!Array.isArray(ops)) throw new Error(`${dir}: only JSON 6902 patches (a list of operations) are supported`);
    const targets = objects.filter((o) => (!p.target.kind || o.kind === p.target.kind) && (!p.target.name || o.metadata.name === p.target.name));
    if (!targets.length) throw new Error(`${dir}: patch target ${JSON.stringify(p.target)} matches nothing`);
    objects = objects.map((o) => (targets.includes(o) ? applyPatch(o, ops) : o));
  }
  for (const r of k.replicas ?? []) {
    const target = objects.find((o) => ['Deployment', 'StatefulSet', 'ReplicaSet'].includes(o.kind) && o.metadata.name === r.name);
    if (!target) throw new Error(`${dir}: replicas for "${r.name}" match no workload`);
    (target.spec as { replicas?: number }).replicas = r.count;
  }
  for (const l of k.labels ?? []) {
    if (l.includeSelectors) throw new Error(`${dir}: labels with includeSelectors are not supported`);
    for (const o of objects) {
      o.metadata.labels = { ...o.metadata.labels, ...l.pairs };
      const template = (o.spec as { template?: { metadata?: { labels?: Record<string, string> } } } | undefined)?.template;
      if (l.includeTemplates && template) template.metadata = { ...template.metadata, labels: { ...template.metadata?.labels, ...l.pairs } };
    }
  }
  for (const image of k.images ?? []) {
    for (const c of containers(objects)) {
      const [name, tag] = splitImage(c.image);
      if (name !== image.name) continue;
      c.image = `${image.newName ?? name}${image.newTag ? `:${image.newTag}` : tag ? `:${tag}` : ''}`;
    }
  }
  if (k.namespace) for (const o of objects) if (!CLUSTER_KINDS.has(o.kind)) o.metadata.namespace = k.namespace;
  return objects;
}

function readObjects(path: string): K8sObject[] {
  return parseAllDocuments(readFileSync(path, 'utf8'))
    .map((d) => {
      if (d.errors.length) throw new Error(`${path}: ${d.errors[0].message}`);
      return d.toJS() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null);
}

type Container = { name: string; image: string };
function containers(objects: K8sObject[]): Container[] {
  return objects.flatMap((o) => {
    const spec = o.spec as { template?: { spec?: { containers?: Container[]; initContainers?: Container[] } } } | undefined;
    const pod = spec?.template?.spec;
    return [...(pod?.containers ?? []), ...(pod?.initContainers ?? [])];
  });
}

function splitImage(image: string): [string, string | undefined] {
  const at = image.lastIndexOf(':');
  return at > image.lastIndexOf('/') ? [image.slice(0, at), image.slice(at + 1)] : [image, undefined];
}

type Operation = { op: 'add' | 'replace' | 'remove'; path: string; value?: unknown };

/** RFC 6902 add/replace/remove on a copy of `object`. */
export function applyPatch<T>(object: T, ops: Operation[]): T {
  const out = structuredClone(object) as unknown;
  for (const { op, path, value } of ops) {
    const keys = path.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = keys.pop();
    if (last === undefined) throw new Error(`patch path "${path}" names no member`);
    let parent = out as Record<string, unknown>;
    for (const key of keys) {
      const next = parent[key];
      if (next === null || typeof next !== 'object') throw new Error(`patch path "${path}": "${key}" does not exist`);
      parent = next as Record<string, unknown>;
    }
    const exists = Array.isArray(parent) ? Number(last) < parent.length : last in parent;
    if ((op === 'replace' || op === 'remove') && !exists) throw new Error(`patch ${op} "${path}": nothing there`);
    if (op === 'remove') {
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
    } else if (op === 'add' && Array.isArray(parent)) {
      parent.splice(last === '-' ? parent.length : Number(last), 0, value);
    } else if (op === 'add' || op === 'replace') {
      parent[last] = value;
    } else {
      throw new Error(`patch op "${op as string}" is not supported`);
    }
  }
  return out as T;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) {
    process.stderr.write('usage: npm run -s k8s:render -- deploy/k8s/overlays/<small|large>\n');
    process.exit(1);
  }
  process.stdout.write(renderKustomization(resolve(dir)).map((o) => stringify(o)).join('---\n'));
}
