import { describe, expect, it } from 'vitest';
import { hasPermission } from './permissions';

describe('permissions', () => {
  it('grants by role', () => {
    expect(hasPermission('admin', 'users:administer')).toBe(true);
    expect(hasPermission('clinician', 'users:administer')).toBe(false);
    expect(hasPermission('clinician', 'data:import')).toBe(true);
    expect(hasPermission('patient', 'data:import')).toBe(false);
    expect(hasPermission('drug-manufacturer', 'patients:list')).toBe(false);
  });
});
