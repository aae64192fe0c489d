// JSON:API `links` and `relationships` of the resources the bridge answers, derived once at
// start-up from the route table and the composed schema, never written per route:
//  - `links.self`: where a resource can be read. The template is the canonical GET of the
//    resource's type: a GET route answering one resource of that type whose path ends in a
//    parameter. A type also answered by a GET without such a parameter (a singleton such as
//    `reports` of /reporting/dashboard) has no canonical path, so no self link. The last parameter
//    is the resource's attribute of that name when it has one (`/accounts/:url_id`), or of its last
//    word (`uid` for `:index_uid`, `code` for `:transfer_code`), else its id; the others come from
//    the request's path or the resource's attributes. Among several templates, those whose
//    collection holds the answering route's path come first (`/platforms/:pid/accounts/:id` for
//    the accounts of /platforms/:pid/accounts), then the shortest (`/v1/categories/:id` before
//    `/v1/categories/slug/:slug`).
//  - `relationships`, beside the attributes (which stay as the spec writes them):
//    * a foreign-key field of the resource's GraphQL type, `<name>Id` / `<name>Ids` naming a type
//      some route answers (`productId` → Product → `products`): `relationships.product`,
//      `relationships.categories` for `categoryIds`, with `data`;
//    * a relation field selected on the resource as `{ id }` only (`platform { id }`):
//      `relationships.platform` with `data`, and no attribute; a relation selecting more is an
//      attribute (an included `categories`), and attributes and relationships share one namespace,
//      so it has no relationship of that name;
//    * a parent in the route's path (`/search/v1/indexes/:index_uid/documents`), or an attribute
//      naming a canonical path's parameter after its type (`index_uid` of a task): `links.related`
//      to the parent's GET. The parent's id is not known then (an index is addressed by its uid),
//      so such a relationship has `links` only, as JSON:API allows.
import {
  getNamedType,
  getNullableType,
  isListType,
  isObjectType,
  isInterfaceType,
  parse,
  type DocumentNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { eachField, walkOf } from './selection.js';
import { isPlainObject } from './jsonapi.js';
import { restName } from './naming.js';
import type { Operation } from './operations.js';
import type { Route } from './types.js';

/** A relationship read off the resource's attributes: `key` holds the id(s). */
export interface RelationshipSpec {
  /** the attribute holding the id(s): a scalar (`product_id`, `category_ids`) or a relation (`platform: { id }`) */
  key: string;
  /** the relationship's name (`product`, `categories`) */
  name: string;
  /** the related resource type */
  type: string;
  many: boolean;
  /** the attribute is the relation itself (`{ id }` only): it leaves the attributes */
  drop: boolean;
}

interface Template {
  path: string;
  /** parameter names, in order; the last one addresses the resource */
  params: string[];
  /** the path's text around its parameters: `path` is literals[0], params[0], literals[1], … */
  literals: string[];
  type: string;
}

/** A template as one route fills it: its parameters in the route's path prefix, by the route's names. */
interface Bound {
  template: Template;
  /** template parameter → the route's parameter at the same place of the path */
  bind: Record<string, string>;
}

/** A parent the resource links to: its type's canonical GET, filled from the request or the attributes. */
interface ParentSpec extends Bound {
  name: string;
}

/** What one route's resources get. */
export interface RouteLinks {
  /** the resource type these apply to (the route's responseType) */
  type: string;
  self?: Bound;
  relationships: RelationshipSpec[];
  parents: ParentSpec[];
  /** attributes the schema knows on the resource (parameters are filled from these only, never from free-form data) */
  attributes: ReadonlySet<string>;
}

const paramsOf = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);

/** `categories` → `category`, `indexes` → `index`, `accounts` → `account`. */
export function singular(type: string): string {
  if (type.endsWith('ies')) return `${type.slice(0, -3)}y`;
  if (/(x|s|ch|sh)es$/.test(type)) return type.slice(0, -2);
  return type.endsWith('s') ? type.slice(0, -1) : type;
}

/** The object a route answers as its resource: the first object down its result selecting `id` (through pages and wrappers). */
export function resourceSelection(doc: DocumentNode, schema: GraphQLSchema): { type: GraphQLNamedType; set: SelectionSetNode } | undefined {
  const { w, op, root } = walkOf(doc, schema);
  let found: { def: GraphQLField<unknown, unknown>; sub?: SelectionSetNode } | undefined;
  eachField(w, op.selectionSet, root, (_key, def, sub) => (found ??= { def, sub }));
  for (let depth = 0; found?.sub && depth < 4; depth++) {
    const type = getNamedType(found.def.type);
    const keys: Record<string, { def: GraphQLField<unknown, unknown>; sub?: SelectionSetNode }> = {};
    eachField(w, found.sub, type, (key, d, s) => (keys[key] ??= { def: d, sub: s }));
    if (keys.id) return { type, set: found.sub };
    // a page (`items`, `results`) or a wrapper (`{ task, canceled }`): the first object below
    found = keys.items ?? Object.values(keys).find((k) => k.sub);
  }
  return undefined;
}

/** How far `template` and `path` agree, segment by segment (a parameter matches a parameter), and the parameters bound there. */
function align(template: string, path: string): { n: number; bind: Record<string, string> } {
  const x = template.split('/');
  const y = path.split('/');
  const bind: Record<string, string> = {};
  let n = 0;
  for (; n < x.length && n < y.length; n++) {
    if (x[n].startsWith(':') && y[n].startsWith(':')) bind[x[n].slice(1)] = y[n].slice(1);
    else if (x[n] !== y[n]) break;
  }
  return { n, bind };
}

const bound = (template: Template, path: string): Bound => ({ template, bind: align(template.path, path).bind });

/** Derive every route's links once; `operations` are the loaded operations the routes run. */
export function deriveLinks(routes: readonly Route[], operations: ReadonlyMap<string, Operation>, schema: GraphQLSchema): Map<Route, RouteLinks> {
  const docs = new Map<Route, DocumentNode>();
  const selections = new Map<Route, ReturnType<typeof resourceSelection>>();
  // GraphQL type → REST type, by the routes answering it (the most frequent wins)
  const votes = new Map<string, Map<string, number>>();
  for (const r of routes) {
    const op = operations.get(r.operation);
    if (!op) continue;
    const doc = parse(op.source);
    docs.set(r, doc);
    const sel = resourceSelection(doc, schema);
    selections.set(r, sel);
    if (!sel || r.raw) continue;
    const v = votes.get(sel.type.name) ?? new Map<string, number>();
    v.set(r.responseType, (v.get(r.responseType) ?? 0) + 1);
    votes.set(sel.type.name, v);
  }
  const restType = new Map([...votes].map(([g, v]) => [g, [...v].sort((a, b) => b[1] - a[1])[0][0]]));

  // canonical GETs: by type, unless a GET answers the type without addressing one
  const singletons = new Set(routes.filter((r) => r.method === 'GET' && !r.list && !/\/:\w+$/.test(r.path)).map((r) => r.responseType));
  const templates = new Map<string, Template[]>();
  for (const r of routes) {
    if (r.method !== 'GET' || r.list || r.raw || !/\/:\w+$/.test(r.path) || singletons.has(r.responseType)) continue;
    const list = templates.get(r.responseType) ?? [];
    list.push({ path: r.path, params: paramsOf(r.path), literals: r.path.split(/:\w+/), type: r.responseType });
    templates.set(r.responseType, list);
  }

  const out = new Map<Route, RouteLinks>();
  for (const r of routes) {
    const sel = selections.get(r);
    const attributes = new Set<string>();
    const links: RouteLinks = { type: r.responseType, relationships: [], parents: [], attributes };
    out.set(r, links);
    if (r.raw) continue;
    const own = templates.get(r.responseType);
    if (own) {
      // a template whose collection holds the route's path (`/platforms/:pid/accounts` for its
      // accounts), else any; the shortest of them (`/v1/categories/:id` before `…/slug/:slug`)
      const inCollection = own.filter((t) => align(t.path, r.path).n >= t.path.split('/').length - 1);
      const shortest = [...(inCollection.length ? inCollection : own)].sort((a, b) => a.path.split('/').length - b.path.split('/').length)[0];
      links.self = bound(shortest, r.path);
    }
    if (sel) {
      const { w } = walkOf(docs.get(r)!, schema);
      eachField(w, sel.set, sel.type, (key, def, sub) => {
        const attr = restName(key);
        attributes.add(attr);
        const named = getNamedType(def.type);
        const many = isListType(getNullableType(def.type));
        if (sub && (isObjectType(named) || isInterfaceType(named)) && 'id' in named.getFields()) {
          const type = restType.get(named.name);
          if (!type) return;
          let onlyId = true;
          eachField(w, sub, named, (k) => (onlyId &&= k === 'id'));
          // selected twice (a fragment's `platform { id }` and the operation's `platform { id code name }`): an attribute if either selects more
          const seen = links.relationships.find((x) => x.key === attr);
          if (seen) seen.drop &&= onlyId;
          else links.relationships.push({ key: attr, name: restName(def.name), type, many, drop: onlyId });
          return;
        }
        const fk = /^(\w+?)(Id|Ids)$/.exec(def.name);
        if (sub || !fk) return;
        const target = restType.get(fk[1][0].toUpperCase() + fk[1].slice(1));
        if (!target || (fk[2] === 'Ids') !== many) return;
        if (!links.relationships.some((x) => x.key === attr)) links.relationships.push({ key: attr, name: many ? target : restName(fk[1]), type: target, many, drop: false });
      });
    }
    // parents: a canonical GET whose path starts the route's path, or whose parameters the
    // resource's attributes name after the parent's type (`index_uid` → indexes)
    for (const [type, list] of templates) {
      if (type === r.responseType) continue;
      for (const t of list) {
        const last = t.params[t.params.length - 1];
        const inPath = align(t.path, r.path).n === t.path.split('/').length && r.path.length > t.path.length;
        const byAttribute = last.startsWith(`${singular(type)}_`) && links.attributes.has(last) && t.params.every((p) => links.attributes.has(p) || r.path.includes(`/:${p}`));
        if ((inPath || byAttribute) && !links.parents.some((p) => p.name === singular(type))) links.parents.push({ name: singular(type), ...bound(t, r.path) });
      }
    }
  }
  return out;
}

interface ResourceLike {
  id: string;
  type: string;
  attributes?: Record<string, unknown>;
  relationships?: Record<string, unknown>;
  links?: Record<string, unknown>;
}

const isResource = (v: unknown): v is ResourceLike => isPlainObject(v) && typeof v.id === 'string' && typeof v.type === 'string';

function fill({ template: t, bind }: Bound, res: ResourceLike, params: Record<string, string>, attributes: ReadonlySet<string>, last: 'self' | 'parent'): string | undefined {
  let path = t.literals[0];
  const n = t.params.length;
  for (let i = 0; i < n; i++) {
    const p = t.params[i];
    const isLast = i === n - 1;
    // `index_uid` is an index's `uid`, `transfer_code` a transfer's `code`
    const name = attributes.has(p) ? p : isLast && attributes.has(p.slice(p.lastIndexOf('_') + 1)) ? p.slice(p.lastIndexOf('_') + 1) : undefined;
    const attr = name ? res.attributes?.[name] : undefined;
    // the resource's own parameter: its attribute of that name, else its id; a parent's: the request's path, else the attribute
    const fromPath = bind[p] !== undefined && !(isLast && last === 'self') ? params[bind[p]] : undefined;
    const value = fromPath || (typeof attr === 'string' && attr ? attr : isLast && last === 'self' ? res.id : params[p]);
    if (typeof value !== 'string' || !value) return undefined;
    path += (URL_SAFE.test(value) ? value : encodeURIComponent(value)) + t.literals[i + 1];
  }
  return path;
}

/** what encodeURIComponent leaves as it is (most ids): such a value is used without a copy */
const URL_SAFE = /^[\w.!~*'()-]*$/;

const idOf = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : isPlainObject(v) && (typeof v.id === 'string' || typeof v.id === 'number') ? String(v.id) : undefined);

/** One resource of the route's type: its relationships and self link added (in place). */
function linkResource(res: ResourceLike, links: RouteLinks, params: Record<string, string>): void {
  if (links.relationships.length || links.parents.length) relate(res, links, params);
  const self = links.self && fill(links.self, res, params, links.attributes, 'self');
  if (self) res.links = res.links ? { ...res.links, self } : { self };
}

/** The resource's relationships (its foreign keys, its `{ id }` relations, its parents), added in place. */
function relate(res: ResourceLike, links: RouteLinks, params: Record<string, string>): void {
  const relationships: Record<string, Record<string, unknown>> = {};
  const attributes = res.attributes ?? {};
  for (const spec of links.relationships) {
    if (!Object.prototype.hasOwnProperty.call(attributes, spec.key)) continue;
    const value = attributes[spec.key];
    if (spec.many) {
      if (!Array.isArray(value)) continue;
      const ids = value.map(idOf).filter((x): x is string => x !== undefined);
      relationships[spec.name] = { data: ids.map((id) => ({ type: spec.type, id })) };
    } else {
      const id = idOf(value);
      if (value !== null && id === undefined) continue;
      relationships[spec.name] = { data: id === undefined ? null : { type: spec.type, id } };
    }
    if (spec.drop) delete attributes[spec.key];
  }
  for (const parent of links.parents) {
    const related = fill(parent, res, params, links.attributes, 'parent');
    if (related) relationships[parent.name] = { ...relationships[parent.name], links: { related } };
  }
  // attributes and relationships share one namespace (JSON:API): a relation rendered in the
  // attributes (an included `categories`, a `platform { id code name }`) stays there alone
  let any = false;
  for (const name in relationships) {
    if (Object.prototype.hasOwnProperty.call(attributes, name)) delete relationships[name];
    else any = true;
  }
  if (any) res.relationships = res.relationships ? { ...res.relationships, ...relationships } : relationships;
}

/**
 * Add links and relationships to the resources of a rendered document (`data`, one or a list) that
 * are of the route's type; resources nested in attributes are left as rendered. Returns the document.
 */
export function linkDocument<D extends { data?: unknown }>(doc: D, links: RouteLinks | undefined, params: Record<string, string>): D {
  if (!links) return doc;
  const data = doc.data;
  for (const res of Array.isArray(data) ? data : [data]) if (isResource(res) && res.type === links.type) linkResource(res, links, params);
  return doc;
}
