import { z } from 'zod';

/** Bad input as a whole (not JSON, an unsupported Bundle type): the import stops and says why. */
export class FhirInputError extends Error {
  override readonly name = 'FhirInputError';
}

/** Any FHIR resource: only resourceType is required here; each importer checks the fields it reads. */
export type FhirResource = { resourceType: string; id?: unknown; contained?: unknown } & Record<string, unknown>;

/** One entry of the input: a resource to import, or an entry that carries none (a DELETE). */
export type FhirEntry = {
  /** 0-based position in the input. */
  position: number;
  fullUrl: string | null;
  method: string | null;
  /** The request URL of a transaction/batch entry ("Patient/85"), used to name an entry without a resource. */
  requestUrl: string | null;
  resource: FhirResource | null;
};

export const supportedBundleTypes = ['transaction', 'batch', 'collection', 'searchset'] as const;

const resourceSchema = z.looseObject({ resourceType: z.string().min(1) });
const bundleSchema = z.object({
  resourceType: z.literal('Bundle'),
  type: z.string().optional(),
  entry: z
    .array(
      z.object({
        fullUrl: z.string().optional(),
        resource: z.unknown().optional(),
        request: z.object({ method: z.string().optional(), url: z.string().optional() }).optional(),
      }),
    )
    .optional(),
});

/**
 * The resources of a FHIR R4 upload: a Bundle (transaction, batch, collection, searchset), NDJSON (one
 * resource per line, as FHIR Bulk Data exports it; a line may itself be a Bundle), or a single resource.
 */
export function readFhirInput(input: string | unknown): FhirEntry[] {
  if (typeof input !== 'string') return entriesOfDocument(input, null);
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  if (text.trim() === '') throw new FhirInputError('The file is empty: expected a FHIR Bundle, a resource or NDJSON.');
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    // NDJSON when its first line is a whole JSON document; otherwise the file is broken JSON.
    const firstLine = text.split('\n').find((line) => line.trim() !== '') ?? '';
    if (firstLine.length === text.trim().length || !isJson(firstLine)) {
      throw new FhirInputError(`The file is not valid JSON (${(error as Error).message}).`);
    }
    return readNdjson(text);
  }
  return entriesOfDocument(document, null);
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function readNdjson(text: string): FhirEntry[] {
  const entries: FhirEntry[] = [];
  let lineNumber = 0;
  for (const line of text.split('\n')) {
    lineNumber += 1;
    if (line.trim() === '') continue;
    let document: unknown;
    try {
      document = JSON.parse(line);
    } catch (error) {
      throw new FhirInputError(`NDJSON line ${lineNumber} is not valid JSON (${(error as Error).message}).`);
    }
    for (const entry of entriesOfDocument(document, lineNumber)) entries.push({ ...entry, position: entries.length });
  }
  return entries;
}

function entriesOfDocument(document: unknown, lineNumber: number | null): FhirEntry[] {
  const where = lineNumber === null ? 'The file' : `NDJSON line ${lineNumber}`;
  const resource = resourceSchema.safeParse(document);
  if (!resource.success) throw new FhirInputError(`${where} is not a FHIR resource (a JSON object with a resourceType).`);
  if (resource.data.resourceType !== 'Bundle') {
    return [{ position: 0, fullUrl: null, method: null, requestUrl: null, resource: resource.data as FhirResource }];
  }
  const bundle = bundleSchema.safeParse(document);
  if (!bundle.success)
    throw new FhirInputError(
      `${where}: the Bundle is malformed (${bundle.error.issues[0]?.path.join('.')}: ${bundle.error.issues[0]?.message}).`,
    );
  const type = bundle.data.type;
  if (type === undefined || !(supportedBundleTypes as readonly string[]).includes(type)) {
    throw new FhirInputError(
      `${where}: a Bundle of type "${type ?? 'none'}" cannot be imported; expected ${supportedBundleTypes.join(', ')}.`,
    );
  }
  return (bundle.data.entry ?? []).map((entry, position) => {
    const parsed = resourceSchema.safeParse(entry.resource);
    return {
      position,
      fullUrl: entry.fullUrl ?? null,
      method: entry.request?.method?.toUpperCase() ?? null,
      requestUrl: entry.request?.url ?? null,
      resource: parsed.success ? (parsed.data as FhirResource) : null,
    };
  });
}
