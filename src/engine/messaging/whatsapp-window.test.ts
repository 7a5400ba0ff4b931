import { describe, expect, it } from 'vitest';
import { customerServiceWindowMs, decideWhatsAppForm } from './whatsapp-window';

const hour = 60 * 60 * 1000;
const now = Date.parse('2026-06-01T12:00:00Z');
const approved = { approval: 'approved' as const };

describe('decideWhatsAppForm', () => {
  it('allows free-form inside 24 hours of the patient’s last message, whatever the template', () => {
    expect(decideWhatsAppForm({ now, lastInboundAt: now - 2 * hour, template: null })).toEqual({
      form: 'free-form',
      windowClosesAt: now + 22 * hour,
    });
    expect(decideWhatsAppForm({ now, lastInboundAt: now - 23 * hour, template: { approval: 'rejected' } }).form).toBe('free-form');
  });

  it('requires an approved template outside the window, or when it closes within the safety margin', () => {
    expect(decideWhatsAppForm({ now, lastInboundAt: null, template: approved })).toEqual({
      form: 'template',
      reason: 'no-inbound-message',
    });
    expect(decideWhatsAppForm({ now, lastInboundAt: now - customerServiceWindowMs, template: approved })).toEqual({
      form: 'template',
      reason: 'window-closed',
    });
    expect(decideWhatsAppForm({ now, lastInboundAt: now - 24 * hour + 60_000, template: approved })).toEqual({
      form: 'template',
      reason: 'window-closing',
    });
    expect(decideWhatsAppForm({ now, lastInboundAt: now - 24 * hour + 60_000, template: approved, safetyMarginMs: 0 }).form).toBe(
      'free-form',
    );
  });

  it('says why nothing may be sent: no template, or one not approved', () => {
    expect(decideWhatsAppForm({ now, lastInboundAt: null, template: null })).toEqual({
      form: 'none',
      reason: 'no-template',
      approval: null,
      windowEndsAt: null,
    });
    for (const approval of ['not-submitted', 'pending', 'rejected', 'paused', 'disabled'] as const) {
      expect(decideWhatsAppForm({ now, lastInboundAt: now - 30 * hour, template: { approval } })).toEqual({
        form: 'none',
        reason: 'template-not-approved',
        approval,
        windowEndsAt: now - 6 * hour,
      });
    }
  });

  it('counts an inbound timestamp ahead of our clock as now', () => {
    expect(decideWhatsAppForm({ now, lastInboundAt: now + hour, template: null })).toEqual({
      form: 'free-form',
      windowClosesAt: now + customerServiceWindowMs,
    });
  });
});
