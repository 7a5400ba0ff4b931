import { describe, expect, it } from 'vitest';
import { conditions } from './conditions';
import { demoCompanies, demoProducts, dispensedQuantity, findDemoProduct } from './demo-catalogue';

describe('demo catalogue', () => {
  it('has four companies, each with products, and every product belongs to one of them', () => {
    expect(demoCompanies).toHaveLength(4);
    const companyIds = new Set(demoCompanies.map((company) => company.id));
    for (const product of demoProducts) expect(companyIds.has(product.companyId)).toBe(true);
    for (const company of demoCompanies) expect(demoProducts.some((product) => product.companyId === company.id)).toBe(true);
  });

  it('uses stable, unique, kebab-case ids', () => {
    const ids = [...demoCompanies.map((company) => company.id), ...demoProducts.map((product) => product.id)];
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it('gives every product a well-formed ATC code and the real code of its generic', () => {
    for (const product of demoProducts) expect(product.atcCode).toMatch(/^[A-Z]\d{2}[A-Z]{2}\d{2}$/);
    const codeOf = (generic: string) => demoProducts.find((product) => product.genericName === generic)?.atcCode;
    expect(codeOf('amlodipine')).toBe('C08CA01');
    expect(codeOf('metformin')).toBe('A10BA02');
    expect(codeOf('atorvastatin')).toBe('C10AA05');
    expect(codeOf('apixaban')).toBe('B01AF02');
    expect(codeOf('tiotropium bromide')).toBe('R03BB04');
  });

  it('treats every condition the simulator assigns', () => {
    for (const condition of conditions) expect(demoProducts.some((product) => product.condition === condition)).toBe(true);
    expect(conditions).toEqual(expect.arrayContaining(['hypertension', 'type-2-diabetes', 'hyperlipidaemia']));
    expect(conditions.length).toBeGreaterThanOrEqual(4);
  });

  it('dispenses tablets one per dose and inhalers by the number of doses they hold', () => {
    const metformin = findDemoProduct('halcyon-metformin-500mg');
    const inhaler = findDemoProduct('solace-salmeterol-fluticasone-50-500mcg');
    expect(metformin && dispensedQuantity(metformin, 90)).toBe(180);
    expect(inhaler && dispensedQuantity(inhaler, 30)).toBe(1);
    expect(inhaler && dispensedQuantity(inhaler, 90)).toBe(3);
    expect(findDemoProduct('no-such-product')).toBeUndefined();
  });
});
