import 'server-only';
import { messageTemplateVersions } from '@/db/schema';
import type { TemplateApprovalStatus, TemplateLanguage, WhatsAppCategory } from '@/engine/messaging';
import type { StoredTemplate } from '../schemas';

/** The columns every reader of a version selects (explicitly, as the rules ask). */
export const storedTemplateColumns = {
  templateId: messageTemplateVersions.templateId,
  language: messageTemplateVersions.language,
  version: messageTemplateVersions.version,
  body: messageTemplateVersions.body,
  whatsAppName: messageTemplateVersions.whatsAppName,
  whatsAppLanguage: messageTemplateVersions.whatsAppLanguage,
  whatsAppCategory: messageTemplateVersions.whatsAppCategory,
  approvalStatus: messageTemplateVersions.approvalStatus,
};

export type StoredTemplateRow = {
  templateId: string;
  language: string;
  version: number;
  body: string;
  whatsAppName: string;
  whatsAppLanguage: string;
  whatsAppCategory: string;
  approvalStatus: string;
};

// The columns are text; only this module's writers fill them, with the engine's values.
export function toStoredTemplate(row: StoredTemplateRow): StoredTemplate {
  return {
    templateId: row.templateId,
    language: row.language as TemplateLanguage,
    version: row.version,
    body: row.body,
    whatsApp: {
      name: row.whatsAppName,
      language: row.whatsAppLanguage,
      category: row.whatsAppCategory as WhatsAppCategory,
      approval: row.approvalStatus as TemplateApprovalStatus,
    },
  };
}
