import 'server-only';
import type { Database } from '@/db/client';
import { products } from '@/db/schema';
import { type MedicationConcept, normaliseNdc } from '@/engine/ingestion';

/**
 * The product catalogue as a lookup for CSV medication values said to be catalogue codes: a value matches a
 * product by id, RxNorm, NDC (compared in 11-digit form), ATC, brand or generic name (case-insensitive). The
 * concept returned carries the product's own codes, so the import links the row to that product.
 */
export async function loadProductCatalogue(database: Database): Promise<(value: string) => MedicationConcept | null> {
  const rows = await database
    .select({
      id: products.id,
      name: products.name,
      genericName: products.genericName,
      rxnormCode: products.rxnormCode,
      ndcCode: products.ndcCode,
      atcCode: products.atcCode,
    })
    .from(products);
  const byKey = new Map<string, MedicationConcept>();
  for (const row of rows) {
    const concept: MedicationConcept = {
      rxnorm: row.rxnormCode,
      ndc: row.ndcCode === null ? null : normaliseNdc(row.ndcCode),
      atc: row.atcCode === null ? null : row.atcCode.trim().toUpperCase(),
      otherCode: null,
      text: row.name,
    };
    for (const key of [
      row.id,
      row.rxnormCode,
      row.ndcCode === null ? null : normaliseNdc(row.ndcCode),
      row.atcCode,
      row.name,
      row.genericName,
    ]) {
      if (key !== null && key.trim() !== '' && !byKey.has(key.trim().toLowerCase())) byKey.set(key.trim().toLowerCase(), concept);
    }
  }
  return (value) => byKey.get(normaliseNdc(value).toLowerCase()) ?? byKey.get(value.trim().toLowerCase()) ?? null;
}
