import type { FhirEntry, FhirResource } from './fhir-input';

/** A reference followed: to a resource of the file (or a contained one), or to one the file only names. */
export type ResolvedReference =
  { kind: 'resource'; key: string; resource: FhirResource } | { kind: 'external'; key: string; resourceType: string };

const relativePattern = /^([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})(?:\/_history\/[^/]+)?$/;
const absoluteTailPattern = /\/([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})(?:\/_history\/[^/]+)?$/;

/**
 * Resolves references the way a FHIR server would within one upload: `urn:uuid:`/`urn:oid:` through the
 * entries' fullUrl, relative `Type/id` (also against an absolute fullUrl's base), absolute URLs, and
 * `#id` within the referring resource's `contained`. Every resource of the file gets a key `Type/id`,
 * the source record id its rows are stored under.
 */
export class ReferenceIndex {
  private readonly byFullUrl = new Map<string, { key: string; resource: FhirResource }>();
  private readonly byKey = new Map<string, FhirResource>();
  private readonly keys = new Map<FhirResource, string>();

  constructor(entries: FhirEntry[]) {
    for (const entry of entries) {
      if (entry.resource === null) continue;
      const key = keyOfEntry(entry);
      if (key === null) continue;
      this.keys.set(entry.resource, key);
      if (!this.byKey.has(key)) this.byKey.set(key, entry.resource);
      if (entry.fullUrl !== null) this.byFullUrl.set(entry.fullUrl, { key, resource: entry.resource });
    }
  }

  /** `Type/id` of a resource of the file, or null when it has neither an id nor a urn:uuid fullUrl. */
  keyOf(resource: FhirResource): string | null {
    return this.keys.get(resource) ?? null;
  }

  resolve(reference: string | undefined, from: { resource: FhirResource; fullUrl: string | null }): ResolvedReference | null {
    if (reference === undefined || reference.trim() === '') return null;
    const target = reference.trim();
    if (target.startsWith('#')) return this.resolveContained(target.slice(1), from.resource);
    const inFile = this.byFullUrl.get(target);
    if (inFile !== undefined) return { kind: 'resource', ...inFile };
    if (target.startsWith('urn:')) return null; // a urn names a resource of this upload only
    const relative = relativePattern.exec(target);
    if (relative !== null) {
      const key = `${relative[1]}/${relative[2]}`;
      const resource = this.byKey.get(key) ?? this.againstBase(key, from.fullUrl);
      if (resource !== undefined) return { kind: 'resource', key: this.keys.get(resource) ?? key, resource };
      return { kind: 'external', key, resourceType: relative[1] as string };
    }
    const absolute = absoluteTailPattern.exec(target);
    if (absolute !== null && /^https?:\/\//.test(target)) {
      const key = `${absolute[1]}/${absolute[2]}`;
      return { kind: 'external', key, resourceType: absolute[1] as string };
    }
    return null;
  }

  private againstBase(key: string, fullUrl: string | null): FhirResource | undefined {
    const base = fullUrl === null ? null : /^(https?:\/\/.+)\/[A-Z][A-Za-z]+\/[^/]+$/.exec(fullUrl)?.[1];
    return base === null || base === undefined ? undefined : this.byFullUrl.get(`${base}/${key}`)?.resource;
  }

  private resolveContained(id: string, container: FhirResource): ResolvedReference | null {
    const contained = Array.isArray(container.contained) ? (container.contained as unknown[]) : [];
    for (const candidate of contained) {
      if (typeof candidate !== 'object' || candidate === null) continue;
      const resource = candidate as FhirResource;
      if (resource.id === id && typeof resource.resourceType === 'string') {
        return { kind: 'resource', key: `${this.keys.get(container) ?? 'contained'}#${id}`, resource };
      }
    }
    return null;
  }
}

function keyOfEntry(entry: FhirEntry): string | null {
  const resource = entry.resource;
  if (resource === null) return null;
  if (typeof resource.id === 'string' && resource.id.trim() !== '') return `${resource.resourceType}/${resource.id.trim()}`;
  const uuid = entry.fullUrl?.startsWith('urn:uuid:') ? entry.fullUrl.slice('urn:uuid:'.length) : null;
  if (uuid !== null && uuid !== '') return `${resource.resourceType}/${uuid}`;
  const requestKey = entry.method === 'PUT' && entry.requestUrl !== null ? relativePattern.exec(entry.requestUrl) : null;
  return requestKey === null || requestKey[1] !== resource.resourceType ? null : `${requestKey[1]}/${requestKey[2]}`;
}
